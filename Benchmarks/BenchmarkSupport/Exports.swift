// Files that import BenchmarkSupport also get the command-line options and figures every
// benchmark shares.
@_exported import BenchmarkCommand

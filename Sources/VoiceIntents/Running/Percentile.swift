/// The value at `fraction` (0…1) of `sorted` (ascending, not empty): the element at rank
/// ⌊count × fraction⌋, the last for 1. The one definition behind every median, p90 and p99 the
/// package prints (`evaluate`, `match --timing`, the benchmarks), so that two of its figures of
/// the same data agree.
package func percentile<Value>(_ sorted: [Value], _ fraction: Double) -> Value {
    precondition(!sorted.isEmpty, "no percentile of nothing")
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

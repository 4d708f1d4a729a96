extension Duration {
    /// The duration in seconds, with its fraction: what timings and real-time factors are
    /// computed in.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

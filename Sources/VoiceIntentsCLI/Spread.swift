extension Array {
    /// `count` of the elements spread evenly over them, in order; all of them when `count` is
    /// `nil` or not smaller.
    func spread(count: Int?) -> [Element] {
        guard let count, count < self.count else { return self }
        return (0..<count).map { self[$0 * self.count / count] }
    }
}

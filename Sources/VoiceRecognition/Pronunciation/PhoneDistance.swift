/// How far apart two pronunciations sound: an edit distance over CMU phones in which a
/// substitution costs less when the two phones are alike.
///
/// ```swift
/// PhoneDistance.distance("K IY OW T OW", "T OW K IY OW")   // 2.5
/// PhoneDistance.distance("M AE P", "N AE P")               // 0.25
/// ```
///
/// Costs, in phones (a deletion or an insertion costs 1):
/// - **0.25** for phones that differ in one feature a recognizer often gets wrong: voicing
///   (P/B, T/D, K/G, F/V, TH/DH, S/Z, SH/ZH, CH/JH), the nasals M/N and N/NG, and vowels that are
///   neighbours in the mouth (IH/IY, UH/UW, EH/AE, EH/EY, AA/AO, AO/OW, AH/AA, AH/IH, AH/ER).
/// - **0.5** for two other phones of one class: two vowels, two stops, two fricatives or
///   affricates (with HH), two nasals, two of the liquids and glides L, R, W, Y.
/// - **1** for phones of different classes.
///
/// Acoustic models confuse phones that share most of their features (the classes are those of
/// the articulatory chart behind the CMU phone set); the three steps are a coarse stand-in for a
/// confusion matrix measured on speech, which this model does not ship. Stress marks (`AH0`) are
/// ignored.
package enum PhoneDistance {
    /// The distance between two pronunciations written as space-separated CMU phones.
    ///
    /// - Parameters:
    ///   - first: Phones such as `"M AE P"`.
    ///   - second: Phones such as `"M AE P S"`.
    /// - Returns: The cheapest edit from one to the other, in phones.
    package static func distance(_ first: String, _ second: String) -> Double {
        let a = symbols(first)
        let b = symbols(second)
        return Double(units(a, b, limit: Int.max / 4) ?? 0) / Double(unit)
    }

    /// The cost of one whole phone, in the integer units the distance is computed in.
    package static let unit = 4

    /// The CMU phone set, in the order of its symbols.
    static let phones = [
        "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
        "P", "B", "T", "D", "K", "G", "CH", "JH", "F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "HH",
        "M", "N", "NG", "L", "R", "W", "Y",
    ]
    private static let index = Dictionary(uniqueKeysWithValues: phones.enumerated().map { ($1, $0) })

    private enum PhoneClass { case vowel, stop, fricative, nasal, approximant }
    private static func phoneClass(_ phone: String) -> PhoneClass {
        switch phone {
        case "P", "B", "T", "D", "K", "G": .stop
        case "CH", "JH", "F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "HH": .fricative
        case "M", "N", "NG": .nasal
        case "L", "R", "W", "Y": .approximant
        default: .vowel
        }
    }
    private static let twins: Set<[String]> = [
        ["P", "B"], ["T", "D"], ["K", "G"], ["F", "V"], ["TH", "DH"], ["S", "Z"], ["SH", "ZH"], ["CH", "JH"],
        ["M", "N"], ["N", "NG"], ["IH", "IY"], ["UH", "UW"], ["EH", "AE"], ["EH", "EY"], ["AA", "AO"],
        ["AO", "OW"], ["AH", "AA"], ["AH", "IH"], ["AH", "ER"],
    ]

    /// Substitution costs between phones, in units, row-major.
    static let substitution: [Int] = phones.flatMap { a in
        phones.map { b in
            if a == b { return 0 }
            if twins.contains([a, b]) || twins.contains([b, a]) { return 1 }
            return phoneClass(a) == phoneClass(b) ? 2 : 4
        }
    }

    /// The symbols of a phone string; phones outside the CMU set become symbols of their own.
    package static func symbols(_ phones: String) -> [Symbol] {
        phones.split(separator: " ").map { phone in
            let bare = String(phone.filter { !$0.isNumber })
            return index[bare].map { Symbol(id: $0, weight: unit) } ?? Symbol(token: bare, weight: unit)
        }
    }

    /// A phone, or a token that stands for more than one (a placeholder, the app's name, a word
    /// with no pronunciation), with what deleting it costs.
    package struct Symbol: Hashable {
        /// Below ``PhoneDistance/phones``'s count: a phone; above: a token.
        package let id: Int
        package let weight: Int

        package init(id: Int, weight: Int) {
            self.id = id
            self.weight = weight
        }

        /// A token, told apart from others by its text.
        package init(token: String, weight: Int) {
            self.init(id: PhoneDistance.phones.count + Self.tokenNumber(token), weight: weight)
        }

        private static func tokenNumber(_ token: String) -> Int {
            // FNV-1a: stable across runs, unlike `hashValue`.
            var hash: UInt32 = 2_166_136_261
            for byte in token.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return Int(hash >> 1)
        }
    }

    /// The weighted edit distance between `a` and `b` in units, or `nil` when it is above
    /// `limit`.
    ///
    /// Every symbol costs at least one ``unit`` to insert or delete, so a path that strays more
    /// than `limit / unit` cells from the diagonal is over the limit: only that band is computed,
    /// and the search stops as soon as a whole row is over the limit.
    package static func units(_ a: [Symbol], _ b: [Symbol], limit: Int) -> Int? {
        var scratch = Scratch()
        return units(a, b, limit: limit, scratch: &scratch)
    }

    /// Two rows of the edit distance's table, kept between calls so that comparing thousands of
    /// pairs does not allocate for each.
    package struct Scratch {
        var previous: [Int] = []
        var current: [Int] = []

        package init() {}
    }

    package static func units(_ a: [Symbol], _ b: [Symbol], limit: Int, scratch: inout Scratch) -> Int? {
        let count = b.count
        let band = min(max(a.count, count), limit / unit)
        guard abs(a.count - count) <= band else { return nil }
        let over = limit + 1
        if scratch.previous.count < count + 1 {
            scratch.previous = [Int](repeating: over, count: count + 1)
            scratch.current = [Int](repeating: over, count: count + 1)
        }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                substitution.withUnsafeBufferPointer { table in
                    scratch.previous.withUnsafeMutableBufferPointer { previous in
                        scratch.current.withUnsafeMutableBufferPointer { current in
                            banded(
                                a, b, limit: limit, band: band, table: table, previous: previous,
                                current: current)
                        }
                    }
                }
            }
        }
    }

    private static func banded(
        _ a: UnsafeBufferPointer<Symbol>, _ b: UnsafeBufferPointer<Symbol>, limit: Int, band: Int,
        table: UnsafeBufferPointer<Int>, previous: UnsafeMutableBufferPointer<Int>,
        current: UnsafeMutableBufferPointer<Int>
    ) -> Int? {
        var previous = previous
        var current = current
        let count = b.count
        let over = limit + 1
        let phoneCount = phones.count
        previous[0] = 0
        for j in 0..<count { previous[j + 1] = j < band ? min(over, previous[j] + b[j].weight) : over }
        for i in 0..<a.count {
            let symbol = a[i]
            let low = max(0, i + 1 - band)
            let high = min(count, i + 1 + band)
            // The cells just outside the band are read by the next row: keep them over the limit.
            if low > 0 { current[low - 1] = over }
            if high < count { current[high + 1] = over }
            current[0] = low == 0 ? min(over, previous[0] + symbol.weight) : over
            var rowMinimum = current[0]
            var j = max(1, low)
            while j <= high {
                let other = b[j - 1]
                let change: Int
                if symbol.id == other.id {
                    change = 0
                } else if symbol.id < phoneCount && other.id < phoneCount {
                    change = table[symbol.id * phoneCount + other.id]
                } else {
                    change = max(symbol.weight, other.weight)
                }
                // Two at a time: `min` of more arguments builds an array.
                let cost = min(
                    min(previous[j - 1] + change, previous[j] + symbol.weight),
                    min(current[j - 1] + other.weight, over))
                current[j] = cost
                rowMinimum = min(rowMinimum, cost)
                j += 1
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[count] <= limit ? previous[count] : nil
    }
}

/// English number words, for grammars and for saying digits.
package enum NumberWords {
    package static let units = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ]
    package static let teens = [
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen",
    ]
    package static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The words that start a number from zero to ninety-nine no larger than `largest`: the
    /// units and teens, and the tens words, that are at most `largest` (all of them when
    /// `largest` is 99 or more). A thermostat's 10 to 35 cannot then be heard as "ninety" for
    /// "nineteen"; "thirty nine" is still said, and asked again as a number outside the range.
    package static func belowHundred(largest: Double) -> (single: [String], tens: [String]) {
        let single = (units + teens).enumerated().filter { Double($0.offset) <= largest }.map(\.element)
        let tens = tens.enumerated().filter { Double(20 + 10 * $0.offset) <= largest }.map(\.element)
        return single.isEmpty ? (units + teens, self.tens) : (single, tens)
    }

    /// Zero to ninety-nine (at most `largest`'s tens), in JSGF.
    private static func belowHundred(_ largest: Double) -> String {
        let (single, tens) = belowHundred(largest: largest)
        let compound =
            tens.isEmpty
            ? "" : " | ( \(tens.joined(separator: " | ")) ) [ \(units.dropFirst().joined(separator: " | ")) ]"
        return "( \(single.joined(separator: " | "))\(compound) )"
    }

    /// Zero to ninety-nine, in JSGF.
    private static let anyBelowHundred = belowHundred(.infinity)

    /// Zero to nine hundred and ninety-nine, and "twelve hundred", in JSGF.
    private static let belowThousand =
        "( \(anyBelowHundred) | ( a | \(anyBelowHundred) ) hundred [ [ and ] \(anyBelowHundred) ] )"

    /// Numbers in JSGF, as a grammar of a parameter at most `largest` says them: a dozen, a couple,
    /// and up to ninety-nine when `largest` is under a hundred (no tens word above it), up to the
    /// hundreds under a thousand, up to the thousands when larger or unbounded.
    package static func grammar(largest: Double?) -> String {
        let limit = largest ?? .infinity
        let numbers =
            limit < 100
            ? belowHundred(limit)
            : limit < 1_000
                ? belowThousand
                : "\(belowThousand) | ( a | \(belowThousand) ) thousand [ [ and ] \(belowThousand) ]"
        return "( a dozen | a couple | \(numbers) )"
    }

    /// What may follow a whole number to say a fraction: "and a half", "and a quarter", "and
    /// three quarters" (`SpokenNumber`'s tails).
    package static let fractions = [
        ["and", "a", "half"], ["and", "one", "half"], ["and", "a", "quarter"], ["and", "one", "quarter"],
        ["and", "three", "quarters"],
    ]

    package static let weekdays = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// A phrase token as the words to say: "23" → ["twenty", "three"], "map" → ["map"].
    package static func spokenToken(_ token: String) -> [String] {
        if let number = Int(token) { return spell(number).split(separator: " ").map(String.init) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, let whole = Int(parts[0]), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return spokenToken(String(whole)) + ["point"] + parts[1].map { units[Int(String($0))!] }
        }
        return [token]
    }

    package static let words = Set(
        units + teens + tens + ["a", "dozen", "couple", "hundred", "thousand", "and"])

    /// "23" → "twenty three", "1200" → "one thousand two hundred" (as eSpeak NG's American
    /// voice says it); numbers outside 0…999,999 as digits one by one.
    package static func spell(_ number: Int) -> String {
        switch number {
        case 0..<10: return units[number]
        case 10..<20: return teens[number - 10]
        case 20..<100:
            let rest = number % 10
            return tens[number / 10 - 2] + (rest == 0 ? "" : " " + units[rest])
        case 100..<1000:
            let rest = number % 100
            return units[number / 100] + " hundred" + (rest == 0 ? "" : " " + spell(rest))
        case 1000..<1_000_000:
            let rest = number % 1000
            return spell(number / 1000) + " thousand" + (rest == 0 ? "" : " " + spell(rest))
        default:
            return String(number).compactMap { $0.wholeNumberValue }.map { units[$0] }.joined(separator: " ")
        }
    }
}

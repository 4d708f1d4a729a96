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

    /// Numbers from zero to ninety-nine, a dozen, a couple, and hundreds.
    package static let grammar =
        "( \(units.joined(separator: " | ")) | \(teens.joined(separator: " | ")) "
        + "| ( \(tens.joined(separator: " | ")) ) [ \(units.dropFirst().joined(separator: " | ")) ] "
        + "| a dozen | a couple | ( a | \(units.dropFirst().joined(separator: " | ")) ) hundred )"

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

    package static let words = Set(units + teens + tens + ["a", "dozen", "couple", "hundred"])

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

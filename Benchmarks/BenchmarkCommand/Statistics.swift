// Figures the benchmarks share for telling two kinds of clips apart by a measure.

import VoiceIntents

/// The chance that a positive scores higher than a negative (ties count half): the area under
/// the ROC curve, 0.5 for a measure that tells nothing. NaN when either side is empty.
public func areaUnderCurve(positives: [Double], negatives: [Double]) -> Double {
    guard !positives.isEmpty, !negatives.isEmpty else { return .nan }
    var wins = 0.0
    for positive in positives {
        for negative in negatives { wins += positive > negative ? 1 : positive == negative ? 0.5 : 0 }
    }
    return wins / Double(positives.count * negatives.count)
}

/// The values at `fractions` of `values` (each the package's `percentile`); empty when `values`
/// is.
public func quantiles(_ values: [Double], at fractions: [Double]) -> [Double] {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return [] }
    return fractions.map { percentile(sorted, $0) }
}

/// Reading a slider-like setting of a modern Photos adjustment with one rule for values out of
/// range, shared by the colour adjustments (docs/spec/modern-adjustments.md §0): a value inside
/// `accepted` is clamped to `range` (Photos' sliders and their offsets can add up past the
/// nominal range by a little); a value beyond `accepted` is not a slider value at all and is
/// refused, naming the adjustment, the key and the range.
extension AAEAdjustment {
    /// The number under `key` (`defaultValue` when absent), clamped to `range`; throws
    /// `wrongSettingType` when it is not a number or lies outside `accepted`.
    func rangedNumber(_ key: String, default defaultValue: Double = 0, range: ClosedRange<Double>,
                      accepted: ClosedRange<Double>) throws(AAEError) -> Double {
        guard let value = try optionalNumber(key) else { return defaultValue }
        guard accepted.contains(value) else {
            throw .wrongSettingType(adjustment: identifier, key: key,
                                    expected: "a number in \(accepted.lowerBound)…\(accepted.upperBound)",
                                    found: "\(value)")
        }
        return min(range.upperBound, max(range.lowerBound, value))
    }

    /// A slider or offset in −1…1: clamped to it, refused beyond ±3.
    func slider(_ key: String, default defaultValue: Double = 0) throws(AAEError) -> Double {
        try rangedNumber(key, default: defaultValue, range: -1...1, accepted: -3...3)
    }

    /// A fraction in 0…1: clamped to it, refused beyond −1…2.
    func fraction(_ key: String, default defaultValue: Double) throws(AAEError) -> Double {
        try rangedNumber(key, default: defaultValue, range: 0...1, accepted: -1...2)
    }

    /// The same adjustment with the members of the object under `key` (when present) laid over
    /// its settings: some adjustments keep their inputs under `inputKeys` (aae-format.md §3),
    /// others at the top level. Throws when `key` holds something other than an object.
    func flattening(_ key: String) throws(AAEError) -> AAEAdjustment {
        guard settings[key] != nil else { return self }
        var flat = self
        flat.settings.merge(try object(key)) { $1 }
        return flat
    }

    /// The first of `names` the settings hold, or the first name when none: for a setting that
    /// real files and Photos' schema spell differently (aae-format.md §3, `inputSharpness` or
    /// `intensity`).
    func key(_ names: String...) -> String { names.first { settings[$0] != nil } ?? names[0] }
}

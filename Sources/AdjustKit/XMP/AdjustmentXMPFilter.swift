import XMPParse

/// A filter that AdjustmentXMP carries as properties (docs/spec/xmp-format.md §3): it names the
/// properties it owns and reads and writes them itself, so the reader, the writer and the
/// known-names list never name a filter.
protocol AdjustmentXMPFilter: EditFilter {
    /// Every property name the filter owns, read or written (aas names; the Camera Raw fallback's
    /// are crs names and are not listed, as they are not aas properties).
    static var xmpPropertyNames: [String] { get }
    /// The steps of this kind the packet holds, in order: none when absent, one for every kind
    /// but the `aas:Filters` items. `chain` holds the kinds read before it (registry order), for
    /// a filter whose presence depends on them.
    static func readAll(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> [Self]
    /// Writes the properties of `steps` (this kind's steps of a chain, in order).
    static func writeAll(_ steps: [Self], to xmp: inout AdjustmentXMPWriter)
}

/// A filter that occurs at most once in a packet (every kind but the `aas:Filters` items).
protocol SingleAdjustmentXMPFilter: AdjustmentXMPFilter {
    /// The filter as the packet holds it; nil when it is absent.
    static func read(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> Self?
    /// Writes the filter's properties, or nothing where iOS's writer omitted an identity value.
    func write(to xmp: inout AdjustmentXMPWriter)
}

extension SingleAdjustmentXMPFilter {
    static func readAll(from xmp: inout AdjustmentXMPReader, chain: EditChain) throws(ChainError) -> [Self] {
        try read(from: &xmp, chain: chain).map { [$0] } ?? []
    }

    static func writeAll(_ steps: [Self], to xmp: inout AdjustmentXMPWriter) {
        for step in steps { step.write(to: &xmp) }
    }
}

/// What a filter's reader sees: the packet's properties by namespace, and the warnings list.
struct AdjustmentXMPReader {
    let packet: XMPPacket
    /// The `aas:` properties.
    let aas: AdjustmentProperties
    /// Remarks for the user (an incomplete filter, an unknown property), one line each.
    var warnings: [String] = []

    init(packet: XMPPacket) {
        self.packet = packet
        aas = AdjustmentProperties(packet: packet, namespace: AdjustmentNamespace.aas, prefix: "aas")
    }

    /// True when every one of `names` is present. A filter whose required properties are only
    /// partly there does not exist, as in Core Image; that is reported rather than dropped silently.
    mutating func hasAll(_ names: [String], of filterName: String) -> Bool {
        let missing = names.filter { !aas.has($0) }
        if missing.isEmpty { return true }
        if missing.count < names.count {
            warnings.append("incomplete \(filterName) ignored: missing " + missing.map { "aas:\($0)" }.joined(separator: ", "))
        }
        return false
    }

    /// The numbers of `names`, in order; only called once `hasAll` confirmed they are all there.
    func numbers(_ names: [String]) throws(ChainError) -> [Double] {
        try names.map { name throws(ChainError) in try aas.requiredNumber(name) }
    }
}

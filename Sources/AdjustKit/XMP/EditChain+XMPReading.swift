import XMPParse

extension EditChain {
    /// Builds the chain from a parsed packet (xmp-format.md §3–§6): each registered filter
    /// reads its own properties, in the registry's order.
    ///
    /// Values are kept as written (clamping is the renderer's business). A filter whose required
    /// properties are only partly present does not exist, as in Core Image; that, and any aas
    /// property this project does not know, is reported in `warnings` rather than dropped silently.
    package init(xmp packet: XMPPacket, warnings: inout [String]) throws(ChainError) {
        self.init()
        var reader = AdjustmentXMPReader(packet: packet)
        for kind in FilterRegistry.xmpKinds {
            try Self.read(kind, from: &reader, into: &self)
        }
        warnings += reader.warnings

        let unknown = packet.properties.keys
            .filter { $0.namespace == AdjustmentNamespace.aas && !FilterRegistry.knownXMPNames.contains($0.name) }
            .map { "aas:\($0.name)" }.sorted()
        if !unknown.isEmpty {
            warnings.append("unknown adjustment properties ignored: " + unknown.joined(separator: ", "))
        }
    }

    private static func read<Kind: AdjustmentXMPFilter>(_ kind: Kind.Type, from reader: inout AdjustmentXMPReader,
                                                       into chain: inout EditChain) throws(ChainError) {
        chain.setAll(kind, try kind.readAll(from: &reader, chain: chain))
    }
}

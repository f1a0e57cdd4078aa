extension EditChain {
    /// The chain as an AdjustmentXMP packet in the iOS writer's style (xmp-format.md §2, §7):
    /// element form, namespaces declared on the one `rdf:Description`, 3-space indent.
    ///
    /// Like iOS, the writer omits identity filters: vibrance with |amount| ≤ 0.001, and
    /// highlight/shadow with |shadows| < 0.005 and highlights > 0.995. Every other chain reads
    /// back equal (`EditChain(xmp:)`), exactly with `.exact` numbers and to `%g`'s six significant
    /// digits with `.coreImage`. Steps that AdjustmentXMP cannot carry (modern Photos
    /// adjustments) are left out.
    package func adjustmentXMP(numberStyle: NumberStyle = .coreImage) -> String {
        var body = AdjustmentXMPWriter(numberStyle: numberStyle)
        for kind in FilterRegistry.xmpKinds { Self.write(kind, of: self, to: &body) }

        let declarations = body.namespaces.sorted { $0.key < $1.key }
            .map { "\n            xmlns:\($0.key)=\"\($0.value)\"" }.joined()
        return """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="adjust">
           <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""\(declarations)>
        \(body.lines.joined(separator: "\n"))
              </rdf:Description>
           </rdf:RDF>
        </x:xmpmeta>

        """
    }

    private static func write<Kind: AdjustmentXMPFilter>(_ kind: Kind.Type, of chain: EditChain,
                                                        to body: inout AdjustmentXMPWriter) {
        kind.writeAll(chain.all(kind), to: &body)
    }
}

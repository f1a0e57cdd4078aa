import XMPParse

/// Typed access to one namespace's simple properties of a packet; every failure names the
/// property, with the conventional prefix for readability.
struct AdjustmentProperties {
    let packet: XMPPacket
    let namespace: String
    let prefix: String

    func has(_ name: String) -> Bool { packet[namespace: namespace, name: name] != nil }

    func value(_ name: String) -> XMPValue? { packet[namespace: namespace, name: name] }

    func text(_ name: String) throws(ChainError) -> String? {
        switch value(name) {
        case nil: return nil
        case .text(let text)?: return text
        case _?: throw .expectedSimpleValue(property: "\(prefix):\(name)")
        }
    }

    func number(_ name: String) throws(ChainError) -> Double? {
        guard let text = try text(name) else { return nil }
        do {
            return try XMPNumber.parse(text)
        } catch {
            throw .invalidNumber(property: "\(prefix):\(name)", text: text, reason: "\(error)")
        }
    }

    /// A required number: only called after `has` confirmed the filter's properties are all there.
    func requiredNumber(_ name: String) throws(ChainError) -> Double {
        guard let number = try number(name) else { preconditionFailure("checked by caller") }
        return number
    }
}

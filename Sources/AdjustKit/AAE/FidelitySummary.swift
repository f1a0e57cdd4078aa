/// The figures of a whole `adjust fidelity` run: how many photos were compared, the mean PSNR
/// of adjust's renders and of the unedited photos against Apple's renders, the mean gain, how
/// many came out worse than the unedited photo and the lowest grey correlation.
package struct FidelitySummary: Equatable, Sendable {
    /// Photos with status `ok`.
    package var compared = 0
    /// Compared photos whose gain is negative (`FidelityReport.isWorseThanUnedited`).
    package var worse = 0
    /// Means over the compared photos that have the figure and where it is finite (a render
    /// identical to Apple's has an infinite PSNR and is left out of the mean); nil when none has it.
    package var meanPSNR: Double?
    package var meanUneditedPSNR: Double?
    package var meanGain: Double?
    /// The lowest NCC of any compared photo; nil when none has one (every size differed).
    package var minNCC: Double?

    package init(_ reports: [FidelityReport]) {
        let compared = reports.filter { $0.status == .compared }
        self.compared = compared.count
        worse = compared.count(where: \.isWorseThanUnedited)
        func mean(_ values: [Double?]) -> Double? {
            let finite = values.compactMap { $0 }.filter(\.isFinite)
            return finite.isEmpty ? nil : finite.reduce(0, +) / Double(finite.count)
        }
        meanPSNR = mean(compared.map(\.psnr))
        meanUneditedPSNR = mean(compared.map(\.uneditedPSNR))
        meanGain = mean(compared.map(\.gain))
        minNCC = compared.compactMap(\.ncc).min()
    }
}

/// What a colour kernel does to a grey pixel (R = G = B), so that the program can tell whether
/// every pixel it leaves is grey (`ColourProgram.leavesGrey`): a JPEG of such a picture has
/// constant chroma, which the encoder then samples at half resolution (`JPEGChroma`).
///
/// `makesGrey` and `keepsGrey` are promises about bits, not about appearance: the kernel writes
/// the same `Float` to all three channels. A kernel that does not declare one is `mayColour`,
/// which only ever costs the smaller, cheaper file, never a pixel.
enum GreyEffect: Sendable {
    /// Every pixel out is grey, whatever came in (SmartBlackAndWhite).
    case makesGrey
    /// A grey pixel in is a grey pixel out (the same arithmetic on each channel).
    case keepsGrey
    /// Anything else: the default.
    case mayColour

    /// Whether the picture is grey after this kernel, given whether it was before.
    func leavesGrey(after grey: Bool) -> Bool {
        switch self {
        case .makesGrey: true
        case .keepsGrey: grey
        case .mayColour: false
        }
    }

    /// The effect of `effects` run in turn.
    static func ofSequence(_ effects: [GreyEffect]) -> GreyEffect {
        effects.reduce(.keepsGrey) { sum, next in
            switch next {
            case .makesGrey: .makesGrey
            case .keepsGrey: sum
            case .mayColour: .mayColour
            }
        }
    }
}

/// `ColourProgram.leavesGrey`, kernel by kernel as they join the program, in chain order.
///
/// The runs apply the stored frame's kernels in chain order, then the output frame's (also in
/// chain order), so the two sides are tallied apart and the output's after the stored one's. Two
/// exceptions keep the tally from ever claiming a grey the runs do not make: a region kernel runs
/// before every other stored-frame step wherever it stands in the chain, so it may keep greys but
/// never counts as making them; and a step of several kernels (`ColourKernels`) that joins the
/// output frame may have joined the stored one too, so it counts as `mayColour` there.
struct GreyTally {
    private var storedGrey = false
    private var outputEffects: [GreyEffect] = []

    /// `kernel` has joined the program; `joinedOutput`: it added to the output frame's runs.
    mutating func add(_ kernel: any ColourKernel, joinedOutput: Bool) {
        var effect = kernel.greyEffect
        if kernel is any RegionKernel, effect == .makesGrey { effect = .mayColour }
        if joinedOutput {
            outputEffects.append(kernel is ColourKernels ? .mayColour : effect)
        } else {
            storedGrey = effect.leavesGrey(after: storedGrey)
        }
    }

    /// Whether the kernels so far leave every pixel grey. The geometry, the shrink and the
    /// compositing over black treat the three channels alike, so they keep greys.
    var leavesGrey: Bool { GreyEffect.ofSequence(outputEffects).leavesGrey(after: storedGrey) }
}

import ArgumentParser

@main
struct Adjust: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Replay Apple Photos' non-destructive edits (.AAE sidecars, iOS 5–7 AdjustmentXMP) on the original JPEG or HEIC.",
        discussion: """
        Photos keeps your original untouched and stores each edit beside it: an .AAE sidecar (iOS \
        8 and later, macOS Photos) or an AdjustmentXMP packet (iOS 5–7). adjust finds the edit and \
        renders what Photos shows — in a DCIM copy or export (IMG_1234.HEIC + IMG_1234.AAE), an \
        extracted iPhone backup (Media/DCIM + Media/PhotoData/Mutations), or a file you name — \
        from JPEG and HEIC originals.

        Exit status: 0 success; 64 bad command line; 65 invalid input (a damaged photo or edit, an \
        edit that keeps nothing); 66 input missing or unreadable (or no edit found by render); 69 \
        the edit cannot be replayed (--strict, another app's edit, nothing replayable) or HEIC \
        needs a newer libheif (or this x86-64 build needs SSE4.2); 73 the output cannot be written; \
        130/143 batch interrupted.

        EXAMPLES:
          adjust render IMG_1234.HEIC                  (finds IMG_1234.AAE beside it)
          adjust batch ~/Pictures/DCIM --out ~/edited --max-size 2048
          adjust inspect IMG_1234.JPG                  (what the edit holds, and the render plan)
          adjust fidelity ~/export --html report.html  (adjust's renders beside Apple's)
        """,
        version: "0.1.0",
        subcommands: [RenderCommand.self, InspectCommand.self, BatchCommand.self, CompareCommand.self, XMPCommand.self,
                      FidelityCommand.self])
}

import ArgumentParser

@main
struct Adjust: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Replay iOS Photos' non-destructive edits (AdjustmentXMP) on the original JPEG.",
        discussion: """
        Exit status: 0 success; 64 bad command line; 65 invalid input (XMP, JPEG or an edit \
        that keeps nothing); 66 input missing or unreadable; 69 the edit uses a filter this \
        version cannot render; 73 the output cannot be written.
        """,
        version: "0.1.0",
        subcommands: [RenderCommand.self, InspectCommand.self, BatchCommand.self, CompareCommand.self, XMPCommand.self,
                      FidelityCommand.self])
}

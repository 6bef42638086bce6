import ArgumentParser
import Foundation
import GalleryPipeline

extension GalleryCommand {
    /// Bad arguments exit with status 2, the documented status for them (swift-argument-parser's own
    /// is 64), and a misspelt command gets the closest one suggested, as a misspelt option already is.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = unknownCommand(in: arguments) {
            Terminal.error(problem)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    /// "unknown command 'bulid'; did you mean 'build'?" for a word where a subcommand must be.
    static func unknownCommand(
        in arguments: [String], of command: ParsableCommand.Type = GalleryCommand.self,
        path: [String] = ["galleryssg"]
    ) -> String? {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty, let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = subcommands.map { $0._commandName }
        guard let next = subcommands.first(where: { $0._commandName == word }) else {
            guard word != "help" else { return nil }
            let hint =
                Spelling.closest(to: word, among: names).map { "did you mean '\($0)'?" }
                ?? "the commands are \(names.joined(separator: ", "))"
            return
                "unknown command '\(word)' for \(path.joined(separator: " ")); \(hint) (see \(path.joined(separator: " ")) --help)"
        }
        return unknownCommand(in: Array(arguments.dropFirst()), of: next, path: path + [word])
    }
}

import ArgumentParser
import Foundation
import Identity

/// `facewatch identities list | remove NAME`: the enrolled identities (no model needed).
struct IdentitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identities",
        abstract: "List or remove enrolled identities (config identity.store).",
        subcommands: [List.self, Remove.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One JSON line per enrolled identity: name, enrolled_at, descriptors.")
        @OptionGroup var options: ConfigOptions

        func run() throws {
            try runIdentityCommand {
                let configuration = try options.load()
                let store = try IdentityStore(path: configuration.identityStore ?? IdentityStore.defaultPath())
                for identity in store.identities {
                    let when = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: identity.enrolledAt))
                    print(#"{"name":"\#(identity.name)","enrolled_at":"\#(when)","descriptors":\#(identity.descriptors.count)}"#)
                }
                return true
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an enrolled identity. Exit status 1 if there is none of that name.")
        @Argument(help: "The name to remove.")
        var name: String
        @OptionGroup var options: ConfigOptions

        func run() throws {
            try runIdentityCommand {
                let configuration = try options.load()
                var store = try IdentityStore(path: configuration.identityStore ?? IdentityStore.defaultPath())
                guard store.identity(named: name) != nil else {
                    FileHandle.standardError.write(Data("\(IdentityError.unknownName(name))\n".utf8))
                    return false
                }
                try store.remove(name)
                return true
            }
        }
    }
}

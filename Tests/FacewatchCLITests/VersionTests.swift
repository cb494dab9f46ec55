import Foundation
import XCTest

/// `facewatch --version` prints the repository's `VERSION` (the one source of the version, which
/// Scripts/make-deb names the Debian package after): the Swift constant must not drift from it.
final class VersionTests: XCTestCase {
    private var binary: URL {
        // The test bundle sits in the build folder next to the executable.
        var url = Bundle(for: VersionTests.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("facewatch")
    }

    func testVersionPrintsTheVersionFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("VERSION")
        let version = try String(contentsOf: file, encoding: .utf8)
        XCTAssertNotNil(version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?\n$"#, options: .regularExpression),
                        "VERSION is one semantic version and a newline: \(version.debugDescription)")

        let process = Process()
        process.executableURL = binary
        process.arguments = ["--version"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(printed, version, "facewatchVersion (Sources/FacewatchCLI/Version.swift) equals VERSION")
    }
}

import Foundation
@testable import WebServer
import XCTest

/// The web pages are found beside the running executable (a build's resource bundle, or an
/// install's `share/facewatch/Pages`), and a missing or incomplete folder is one clear error
/// instead of a stopped process.
final class PageFilesTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/WebServer/Pages").standardizedFileURL

    func testTheBuildsPagesBesideTheTestBinaryAreTheSourceFiles() throws {
        let pages = try PageFiles()
        let names = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        XCTAssertEqual(pages.files.keys.sorted(), names)
        for name in names {
            XCTAssertEqual(pages.files[name]?.body, try Data(contentsOf: sources.appendingPathComponent(name)), name)
        }
        XCTAssertEqual(pages.files["index.html"]?.type, "text/html; charset=utf-8")
        XCTAssertEqual(pages.files["check.js"]?.type, "text/javascript; charset=utf-8")
    }

    func testAnInstalledBinaryLooksInItsPrefixesShareFolder() {
        let folders = PageFiles.folders(besides: URL(fileURLWithPath: "/usr/local/bin/facewatch"))
        XCTAssertEqual(folders.map(\.path), ["/usr/local/bin/Facewatch_WebServer.resources/Pages",
                                            "/usr/local/share/facewatch/Pages"])
    }

    func testAFolderWithoutTheIndexPageOrNoFolderIsAnErrorNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("body {}".utf8).write(to: folder.appendingPathComponent("facewatch.css"))
        XCTAssertThrowsError(try PageFiles(directory: folder)) { error in
            XCTAssertEqual(error as? PageFilesError, .incomplete(folder))
            XCTAssertTrue("\(error)".hasPrefix("\(folder.path): no index.html"), "\(error)")
        }
        let missing = folder.appendingPathComponent("none")
        XCTAssertThrowsError(try PageFiles(directory: missing)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(missing.path): cannot read the web pages ("), "\(error)")
        }
        let notFound = PageFilesError.notFound(PageFiles.folders(besides: URL(fileURLWithPath: "/opt/fw/bin/facewatch")))
        XCTAssertEqual("\(notFound)", "the web pages are in none of /opt/fw/bin/Facewatch_WebServer.resources/Pages, "
                       + "/opt/fw/share/facewatch/Pages; install them with `sudo install -d /usr/local/share/facewatch && "
                       + "sudo cp -r Sources/WebServer/Pages /usr/local/share/facewatch/` (README, \"Running as a service\")")
    }
}

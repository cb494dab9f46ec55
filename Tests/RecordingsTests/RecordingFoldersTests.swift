import Foundation
import Recordings
import XCTest

/// What a path given to `check-eval` stands for: a recording, or the recordings in a folder.
final class RecordingFoldersTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-folders-\(UUID().uuidString)")
        for name in ["set/b", "set/a", "set/notes", "set/a/deeper"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        for name in ["set/a", "set/b"] {
            try Data("{}".utf8).write(to: folder.appendingPathComponent(name).appendingPathComponent("recording.json"))
        }
        try Data().write(to: folder.appendingPathComponent("file.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testARecordingIsItself() throws {
        let path = folder.appendingPathComponent("set/a").path
        XCTAssertEqual(try Recording.folders(in: path), [path])
    }

    func testAFolderOfRecordingsIsTheRecordingsInItSorted() throws {
        let set = folder.appendingPathComponent("set")
        XCTAssertEqual(try Recording.folders(in: set.path), [set.appendingPathComponent("a").path, set.appendingPathComponent("b").path])
    }

    func testAPathWithoutARecordingIsAnErrorNamingIt() {
        let notes = folder.appendingPathComponent("set/notes").path
        XCTAssertThrowsError(try Recording.folders(in: notes)) { error in
            XCTAssertEqual("\(error)", "\(notes): no recording in it (no recording.json here or one folder down)")
        }
        let file = folder.appendingPathComponent("file.txt").path
        XCTAssertThrowsError(try Recording.folders(in: file)) { error in
            XCTAssertEqual("\(error)", "\(file): not a folder")
        }
        XCTAssertThrowsError(try Recording.folders(in: folder.appendingPathComponent("missing").path))
    }
}

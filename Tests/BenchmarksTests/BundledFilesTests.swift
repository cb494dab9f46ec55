import Benchmarks
import Foundation
import XCTest

/// Where `facewatch bench` looks for its recordings and the identity fixtures: the working
/// directory, then above the executable, never the working directory only.
final class BundledFilesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-bundled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func touch(_ path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: url)
    }

    func testTheRootsAreTheWorkingDirectoryThenEveryFolderAboveTheExecutable() {
        let files = BundledFiles(executable: URL(fileURLWithPath: "/opt/facewatch/bin/facewatch"), workingDirectory: "/home/me")
        XCTAssertEqual(files.roots, ["/home/me", "/opt/facewatch/bin", "/opt/facewatch/bin/share/facewatch",
                                     "/opt/facewatch", "/opt/facewatch/share/facewatch", "/opt", "/opt/share/facewatch"])
    }

    func testTheIdentityFixturesAreFoundAboveTheExecutableFromAnotherWorkingDirectory() throws {
        try touch("repo/Tests/Fixtures/identity/descriptors.json")
        let elsewhere = folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let files = BundledFiles(executable: folder.appendingPathComponent("repo/.build/release/facewatch"), workingDirectory: elsewhere)
        XCTAssertEqual(files.identityFixtures(), folder.appendingPathComponent("repo/Tests/Fixtures/identity").path + "/")
    }

    func testTheWorkingDirectoryComesFirst() throws {
        for root in ["here", "repo"] {
            try touch("\(root)/Recordings/blinks-slow-move/recording.json")
            try touch("\(root)/Recordings/hopper-blinks/recording.json")
            try touch("\(root)/Recordings/hd/pexels-langer-720p/recording.json")
        }
        let here = folder.appendingPathComponent("here").path
        let files = BundledFiles(executable: folder.appendingPathComponent("repo/.build/release/facewatch"), workingDirectory: here)
        XCTAssertEqual(try files.recordings(), ["\(here)/Recordings/blinks-slow-move", "\(here)/Recordings/hopper-blinks"])
        XCTAssertEqual(files.largeRecording(), "\(here)/Recordings/hd/pexels-langer-720p")
    }

    func testWithoutBundledRecordingsTheErrorSaysWhatToRun() throws {
        try touch("repo/Recordings/blinks-slow-move/recording.json")  // the second one is missing
        let files = BundledFiles(executable: folder.appendingPathComponent("repo/bin/facewatch"), workingDirectory: folder.path)
        XCTAssertThrowsError(try files.recordings()) { error in
            XCTAssertTrue("\(error)".contains("run `facewatch bench RECORDING`"), "\(error)")
        }
        XCTAssertNil(files.largeRecording())
        XCTAssertNil(files.identityFixtures())
    }

    func testHogFramesAreTheFoldersJPEGsSorted() throws {
        try touch("frames/b.jpg")
        try touch("frames/a.jpg")
        try touch("frames/notes.txt")
        let frames = folder.appendingPathComponent("frames").path
        XCTAssertEqual(try Benchmark.jpegs(in: frames), ["\(frames)/a.jpg", "\(frames)/b.jpg"])
        XCTAssertThrowsError(try Benchmark.jpegs(in: folder.appendingPathComponent("none").path)) { error in
            XCTAssertTrue("\(error)".contains("cannot read the folder"), "\(error)")
        }
    }
}

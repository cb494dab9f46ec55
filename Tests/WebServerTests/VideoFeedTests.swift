import Events
import Foundation
import Pipeline
import Recordings
import WebServer
import XCTest

/// The MJPEG feed draws only while someone watches, at most `fps` pictures a second.
final class VideoFeedTests: XCTestCase {
    private func frame(_ index: Int) throws -> Frame {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/no-face")
        let recording = try Recording(directory: folder.path)
        return Frame(index: index, t: Double(index) / 30, payload: .jpeg(try recording.jpeg(index)))
    }

    private func waitForPicture(_ feed: VideoFeed, after sequence: Int) -> (sequence: Int, jpeg: Data)? {
        for _ in 0..<400 {
            if let picture = feed.picture(after: sequence) { return picture }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return nil
    }

    func testNothingIsDrawnWithoutViewersAndPicturesAreRateLimited() throws {
        let feed = VideoFeed(fps: 1)
        feed.offer(try frame(0), faces: [], events: [])
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertNil(feed.picture(after: 0), "no viewer, no drawing")
        feed.viewerJoined()
        feed.offer(try frame(1), faces: [], events: [])
        let first = try XCTUnwrap(waitForPicture(feed, after: 0))
        XCTAssertEqual(Array(first.jpeg.prefix(2)), [0xFF, 0xD8], "a JPEG")
        for n in 2..<10 { feed.offer(try frame(n), faces: [], events: []) }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertNil(feed.picture(after: first.sequence), "within a second at 1 fps: no second picture")
        Thread.sleep(forTimeInterval: 1)
        feed.offer(try frame(10), faces: [], events: [])
        XCTAssertNotNil(waitForPicture(feed, after: first.sequence))
        feed.viewerLeft()
    }

    func testAPartIsAMultipartJPEG() {
        let part = VideoFeed.part(Data([0xFF, 0xD8, 0xFF, 0xD9]))
        let head = "--\(VideoFeed.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: 4\r\n\r\n"
        XCTAssertEqual(part, Data(head.utf8) + Data([0xFF, 0xD8, 0xFF, 0xD9]) + Data("\r\n".utf8))
    }
}

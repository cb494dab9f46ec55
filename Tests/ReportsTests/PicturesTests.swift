import Config
import Events
import Foundation
import Imaging
import Pipeline
import Recordings
import Reports
import XCTest

/// The plot and the annotated video: what a person looks at to see why a check passed or failed.
final class PicturesTests: XCTestCase {
    private let lines = """
        {"type":"face_found","t":0,"frame":0,"face":1,"box":[100,100,150,150]}
        {"type":"frame","t":0,"frame":0,"faces":[{"face":1,"box":[100,100,150,150],"ear_left":0.31,"ear_right":0.3,"mar":0.05,"smile":0.1,"nose":{"x":0.5,"y":0.5},"pose":{"yaw":0,"pitch":0,"roll":0},"thresholds":{"ear_close_left":0.19,"ear_close_right":0.19,"smile":0.35,"mar":0.33}}]}
        {"type":"frame","t":0.033,"frame":1,"faces":[{"face":1,"box":[100,100,150,150],"ear_left":0.1,"ear_right":0.11,"mar":0.05,"smile":0.1,"nose":{"x":0.5,"y":0.5},"pose":{"yaw":0,"pitch":0,"roll":0}}]}
        {"type":"blink","t":0.2,"frame":6,"face":1,"start":0.033,"duration_ms":167}
        {"type":"frame","t":0.2,"frame":6,"faces":[{"face":2,"box":[1,1,90,90],"ear_left":0.3,"ear_right":0.3,"mar":0.6,"smile":0.1,"nose":{"x":0.5,"y":0.5},"pose":{"yaw":0,"pitch":0,"roll":0}}]}
        {"type":"smile","t":0.5,"frame":15,"face":1,"state":"start","score":0.6}
        {"type":"mouth_open","t":0.6,"frame":18,"face":2,"state":"start","mar":0.6}
        not json
        {"type":"smile","t":0.9,"frame":27,"face":1,"state":"end","score":0.1}
        """

    func testThePlotReadsFramesAndEventsOfOneFace() {
        let plot = EventPlot(jsonLines: lines)
        XCTAssertEqual(plot.face, 1)
        XCTAssertEqual(plot.frameCount, 2, "face 2's frame is not plotted")
        XCTAssertEqual(plot.count(of: "blink"), 1)
        XCTAssertEqual(plot.count(of: "smile"), 1)
        XCTAssertEqual(plot.count(of: "mouth_open"), 0, "face 2's event is not plotted")
        let svg = plot.svg()
        XCTAssertTrue(svg.hasPrefix("<svg"))
        XCTAssertEqual(svg.components(separatedBy: "class=\"blink\"").count - 1, 1)
        XCTAssertEqual(svg.components(separatedBy: "class=\"smile\"").count - 1, 1)
        XCTAssertGreaterThanOrEqual(svg.components(separatedBy: "class=\"series\"").count - 1, 6, "EAR ×2, thresholds, MAR, smile")
        XCTAssertNotNil(XMLParserCheck.parse(svg), "well-formed XML")
        let second = EventPlot(jsonLines: lines, face: 2)
        XCTAssertEqual(second.frameCount, 1)
        XCTAssertEqual(second.count(of: "mouth_open"), 1, "an interval still open at the end is closed there")
    }

    func testTheAnnotatedStreamHasOnePlayableJPEGPerFrame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fw-\(UUID().uuidString).mjpeg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let annotator = try FrameAnnotator(path: path)
        let jpeg = try JPEGEncoder.encode(GrayImage(width: 64, height: 48, fill: 100), quality: 80)
        for n in 0..<3 {
            try annotator.annotate(Frame(index: n, t: Double(n) / 30, payload: .jpeg(jpeg)), faces: [],
                                   events: [Event(t: 0, frame: n, .faceLost(face: 1))])
        }
        try annotator.annotate(Frame(index: 3, t: 0.1, payload: .jpeg(Data("broken".utf8))), faces: [], events: [])
        annotator.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let starts = (0..<data.count - 1).filter { data[$0] == 0xFF && data[$0 + 1] == 0xD8 }
        XCTAssertEqual(starts.count, 3, "a frame that does not decode is left out")
        var decoder = JPEGDecoder()
        let first = try decoder.decodeRGB(data[starts[0]..<starts[1]])
        XCTAssertEqual(first.width, 64)
        XCTAssertNotEqual(Set(first.pixels).count, 1, "labels are drawn")
    }
}

/// Checks that a string is well-formed XML.
private enum XMLParserCheck {
    static func parse(_ text: String) -> Bool? {
        var depth = 0
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "<") {
            guard let close = text[open...].firstIndex(of: ">") else { return nil }
            let tag = text[open...close]
            if tag.hasPrefix("</") { depth -= 1 } else if !tag.hasSuffix("/>") { depth += 1 }
            if depth < 0 { return nil }
            index = text.index(after: close)
        }
        return depth == 0 ? true : nil
    }
}

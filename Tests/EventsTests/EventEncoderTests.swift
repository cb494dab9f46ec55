import FaceCore
import Foundation
import Landmarks
import XCTest
@testable import Events

/// Expected lines are written by hand from shared/spec/events.md and the precision rules on
/// `EventEncoder`, not produced by the encoder.
final class EventEncoderTests: XCTestCase {
    private let encoder = EventEncoder()

    private let face = FrameFace(
        face: 0, box: FaceBox(x: 10, y: 20, width: 30, height: 40), earLeft: 0.30123, earRight: 0.29876,
        mar: 0.015625, smile: -0.031885, nose: SIMD2(0.521484, 0.396667), yaw: 1.8051, pitch: -11.6278,
        roll: -0.001, landmarks: [SIMD2(123.45, 67), SIMD2(0.5, -2.25)])

    private var cases: [(Event, String)] {
        [
            (Event(t: 1.2346, frame: 37, .faceFound(face: 1, box: FaceBox(x: 120, y: 80, width: 200, height: 201))),
             #"{"type":"face_found","t":1.235,"frame":37,"face":1,"box":[120,80,200,201]}"#),
            (Event(t: 10.0, frame: 300, .faceLost(face: 1)),
             #"{"type":"face_lost","t":10,"frame":300,"face":1}"#),
            (Event(t: 97.0 / 30, frame: 97, .blink(face: 0, start: 92.0 / 30, duration: 5.0 / 30)),
             #"{"type":"blink","t":3.233,"frame":97,"face":0,"start":3.067,"duration_ms":167}"#),
            (Event(t: 3.3, frame: 99, .wink(face: 2, eye: .left, start: 3.0, duration: 0.3)),
             #"{"type":"wink","t":3.3,"frame":99,"face":2,"eye":"left","start":3,"duration_ms":300}"#),
            (Event(t: 106.0 / 30, frame: 106, .eyesClosed(face: 0, state: .start, start: 3.0, duration: 16.0 / 30)),
             #"{"type":"eyes_closed","t":3.533,"frame":106,"face":0,"state":"start","start":3,"duration_ms":533}"#),
            (Event(t: 98.0 / 30, frame: 98, .smile(face: 0, state: .start, score: 0.81234)),
             #"{"type":"smile","t":3.267,"frame":98,"face":0,"state":"start","score":0.8123}"#),
            (Event(t: 5.2, frame: 156, .smile(face: 0, state: .end, score: -0.04567)),
             #"{"type":"smile","t":5.2,"frame":156,"face":0,"state":"end","score":-0.0457}"#),
            (Event(t: 125.0 / 30, frame: 125, .mouthOpen(face: 0, state: .end, mar: 0.02)),
             #"{"type":"mouth_open","t":4.167,"frame":125,"face":0,"state":"end","mar":0.02}"#),
            (Event(t: 1.0 / 30, frame: 1, .nose(face: 0, x: 0.50001, y: 0.25)),
             #"{"type":"nose","t":0.033,"frame":1,"face":0,"x":0.5,"y":0.25}"#),
            (Event(t: 0.5, frame: 15, .frame(faces: [face])),
             #"{"type":"frame","t":0.5,"frame":15,"faces":[{"face":0,"box":[10,20,30,40],"ear_left":0.3012,"ear_right":0.2988,"mar":0.0156,"smile":-0.0319,"nose":{"x":0.5215,"y":0.3967},"pose":{"yaw":1.81,"pitch":-11.63,"roll":0},"landmarks":[[123.45,67],[0.5,-2.25]]}]}"#),
            (Event(t: 0.5, frame: 15, .frame(faces: [])),
             #"{"type":"frame","t":0.5,"frame":15,"faces":[]}"#),
            (Event(t: 5, frame: 150, .stats(Stats(fpsIn: 30.0187, fpsOut: 29.5, dropped: 3, latencyP50: 41.25, latencyP95: 58.7))),
             #"{"type":"stats","t":5,"frame":150,"fps_in":30.02,"fps_out":29.5,"dropped":3,"latency_ms":{"p50":41.25,"p95":58.7}}"#),
            (Event(t: 0.4, frame: 12, .error(message: "JPEG decode failed: \"frame 12\"\n", code: "jpeg_decode")),
             #"{"type":"error","t":0.4,"frame":12,"message":"JPEG decode failed: \"frame 12\"\n","code":"jpeg_decode"}"#),
        ]
    }

    func testExactLinesForEveryType() {
        for (event, expected) in cases {
            XCTAssertEqual(encoder.line(event), expected + "\n")
        }
        XCTAssertEqual(Set(cases.map { $0.0.type }), Set(EventType.allCases), "every type has an exact line")
    }

    func testFrameWithoutLandmarksLeavesTheKeyOut() {
        var f = face
        f.landmarks = nil
        f.earLeft = .nan
        XCTAssertEqual(
            encoder.line(Event(t: 0, frame: 0, .frame(faces: [f, f]))),
            #"{"type":"frame","t":0,"frame":0,"faces":[{"face":0,"box":[10,20,30,40],"ear_left":null,"ear_right":0.2988,"mar":0.0156,"smile":-0.0319,"nose":{"x":0.5215,"y":0.3967},"pose":{"yaw":1.81,"pitch":-11.63,"roll":0}},{"face":0,"box":[10,20,30,40],"ear_left":null,"ear_right":0.2988,"mar":0.0156,"smile":-0.0319,"nose":{"x":0.5215,"y":0.3967},"pose":{"yaw":1.81,"pitch":-11.63,"roll":0}}]}"# + "\n")
    }

    func testLinesParseBackWithJSONSerialization() throws {
        for (event, _) in cases {
            let line = encoder.line(event)
            XCTAssertEqual(line.filter { $0 == "\n" }.count, 1)
            let object = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertEqual(object["type"] as? String, event.type.rawValue)
            XCTAssertEqual((object["t"] as? NSNumber)?.doubleValue ?? -1, event.t, accuracy: 0.0005)
            XCTAssertEqual(object["frame"] as? Int, event.frame)
            switch event.payload {
            case .blink(let face, let start, let duration):
                XCTAssertEqual(object["face"] as? Int, face)
                XCTAssertEqual((object["start"] as? NSNumber)?.doubleValue ?? -1, start, accuracy: 0.0005)
                XCTAssertEqual((object["duration_ms"] as? NSNumber)?.doubleValue ?? -1, duration * 1000, accuracy: 0.5)
            case .frame(let faces) where !faces.isEmpty:
                let first = try XCTUnwrap((object["faces"] as? [[String: Any]])?.first)
                XCTAssertEqual(first["box"] as? [Int], [10, 20, 30, 40])
                XCTAssertEqual((first["nose"] as? [String: Double])?["y"], 0.3967)
                XCTAssertEqual((first["landmarks"] as? [[Double]])?.last, [0.5, -2.25])
            case .stats(let s):
                XCTAssertEqual(object["dropped"] as? Int, s.dropped)
                XCTAssertEqual((object["latency_ms"] as? [String: Double])?["p95"], 58.7)
            case .error(let message, let code):
                XCTAssertEqual(object["message"] as? String, message)
                XCTAssertEqual(object["code"] as? String, code)
            default:
                break
            }
        }
    }

    func testStringEscaping() throws {
        let message = "tab\there \\ back, bell \u{07}, é ✓, \r\u{0C}\u{08}"
        let line = encoder.line(Event(t: 0, frame: 0, .error(message: message, code: "x")))
        XCTAssertEqual(line, #"{"type":"error","t":0,"frame":0,"message":"tab\there \\ back, bell \u0007, é ✓, \r\f\b","code":"x"}"# + "\n")
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        XCTAssertEqual(object?["message"] as? String, message)
    }
}

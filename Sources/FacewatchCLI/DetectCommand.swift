import ArgumentParser
import Config
import Detection
import Events
import FaceCore
import Foundation
import Imaging
import Landmarks
import Pipeline

/// `facewatch detect IMAGE`: the configured face detector's boxes on one image, as JSON.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find faces in a JPEG and print their boxes as JSON.",
        discussion: """
            Runs the detector `replay` and `run` use (detector.kind, --detector), with every look of a full search \
            (the cascade also looks at the image turned ±20°; HOG adds a look upsampled once more when \
            detector.small_face_look is on). Each face has `box` (the box the landmark model is fitted in, what \
            `facewatch landmarks` uses for the largest face), `detector_box` (the detector's own rectangle: dlib's for \
            hog, OpenCV's before calibration for haar) and for hog dlib's `score` and `filter` index. Largest first.
            """
    )

    @Argument(help: "A JPEG image.")
    var image: String

    @OptionGroup var options: ConfigOptions

    @Option(help: "Also write the image with the boxes drawn to this JPEG (green: landmark box; for haar, yellow: the cascade's box).")
    var draw: String?

    mutating func run() throws {
        let configuration = try options.load()
        var detector = try configuration.loadFaceDetector()
        let bytes = try readFile(image)
        var decoder = JPEGDecoder()
        let gray = try decoding(image) { try decoder.decodeGray(bytes, conversion: configuration.gray) }
        let faces = detector.detectAll(gray)
        let list = faces.map { face -> String in
            var fields = ["\"box\": \(json(face.box))", "\"detector_box\": \(json(face.detectorBox))"]
            if let score = face.score { fields.append("\"score\": \(String(format: "%.4f", score))") }
            if let filter = face.filter { fields.append("\"filter\": \(filter)") }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        print("{\"image\": \(JSONString.literal(image)), \"detector\": \"\(detector.kind.rawValue)\", \"width\": \(gray.width), "
            + "\"height\": \(gray.height), \"faces\": [\(list.joined(separator: ", "))]}")
        if let draw {
            var canvas = try decoding(image) { try decoder.decodeRGB(bytes) }
            for face in faces {
                if face.detectorBox != face.box {
                    let d = face.detectorBox
                    canvas.rectangle(x: d.x, y: d.y, width: d.width, height: d.height, color: .yellow)
                }
                canvas.rectangle(x: face.box.x, y: face.box.y, width: face.box.width, height: face.box.height, color: .green)
            }
            try JPEGEncoder.encode(canvas, quality: 90).write(to: URL(fileURLWithPath: draw))
        }
    }
}

/// A box as a JSON array [x, y, w, h].
func json(_ box: FaceBox) -> String {
    "[\(box.x), \(box.y), \(box.width), \(box.height)]"
}

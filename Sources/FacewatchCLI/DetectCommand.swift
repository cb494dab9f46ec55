import ArgumentParser
import Config
import Detection
import Foundation
import Imaging
import Landmarks

/// `facewatch detect IMAGE`: the cascade detector's face boxes on one image, as JSON.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find faces in a JPEG with the OpenCV cascade and print their boxes as JSON."
    )

    @Argument(help: "A JPEG image.")
    var image: String

    @OptionGroup var options: ConfigOptions

    @Option(help: "Also write the image with the boxes drawn to this JPEG.")
    var draw: String?

    mutating func run() throws {
        let configuration = try options.load()
        let classifier = try CascadeClassifier(contentsOf: configuration.faceCascade)
        var detector = try CascadeDetector(classifier: classifier, settings: configuration.detector)
        let bytes = try readFile(image)
        var decoder = JPEGDecoder()
        let gray = try decoding(image) { try decoder.decodeGray(bytes, conversion: configuration.gray) }
        let faces = detector.detect(gray).sorted { $0.area > $1.area }
        let calibration = configuration.tracking.calibration
        let list = faces.map { "{\"box\": \(json($0)), \"landmark_box\": \(json(calibration.modelBox(for: $0)))}" }
        print("{\"image\": \"\(image)\", \"width\": \(gray.width), \"height\": \(gray.height), \"faces\": [\(list.joined(separator: ", "))]}")
        if let draw {
            var canvas = try decoding(image) { try decoder.decodeRGB(bytes) }
            for face in faces { canvas.rectangle(x: face.x, y: face.y, width: face.width, height: face.height, color: .green) }
            try JPEGEncoder.encode(canvas, quality: 90).write(to: URL(fileURLWithPath: draw))
        }
    }
}

/// A box as a JSON array [x, y, w, h].
func json(_ box: FaceBox) -> String {
    "[\(box.x), \(box.y), \(box.width), \(box.height)]"
}

import ArgumentParser
import Config
import Detection
import FaceCore
import Foundation
import Imaging
import Landmarks
import Pipeline
import Tracking

/// `facewatch landmarks IMAGE`: fits the 68 landmarks on one image and prints them as JSON.
struct LandmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Fit the 68 dlib landmarks on a JPEG and print {box, landmarks} as JSON.",
        discussion: "Without --box the largest face `facewatch detect` reports is used, fitted in its `box` (the detector of detector.kind, every look)."
    )

    @Argument(help: "A JPEG image.")
    var image: String

    @Option(help: "The face box as x,y,w,h (dlib's rectangle(x, y, x+w-1, y+h-1)).")
    var box: String?

    @OptionGroup var options: ConfigOptions

    @Option(help: "How color becomes gray: luma (the JPEG's Y plane) or rgb-mean (dlib's (R+G+B)/3, for parity with dlib). Default: the config's `gray`.")
    var gray: GrayConversion?

    @Option(help: "Also write the image with the box and points drawn to this JPEG.")
    var draw: String?

    mutating func run() throws {
        let configuration = try options.load()
        let bytes = try readFile(image)
        var decoder = JPEGDecoder()
        let grayImage = try decoding(image) { try decoder.decodeGray(bytes, conversion: gray ?? configuration.gray) }
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: configuration.landmarkCache)
        Log.shared.info("landmark model \(configuration.landmarkModel): \(predictor.structure)")
        let faceBox: FaceBox
        let shape: FaceShape
        if let box {
            faceBox = try parseBox(box)
            shape = predictor.fit(grayImage, box: faceBox)
        } else {
            var detector = try configuration.loadFaceDetector()
            guard let largest = detector.detectAll(grayImage).first,
                  let face = predictor.fitNewFace(grayImage, box: largest.box, refit: detector.refits, isPlausible: { _ in true })
            else {
                throw CommandError("\(image): no face found by the \(detector.kind.rawValue) detector (try --box x,y,w,h)")
            }
            faceBox = face.box
            shape = face.shape
        }
        let points = shape.points.map { "[\(format($0.x)), \(format($0.y))]" }.joined(separator: ", ")
        print("{\"box\": \(json(faceBox)), \"landmarks\": [\(points)]}")
        if let draw {
            var canvas = try decoding(image) { try decoder.decodeRGB(bytes) }
            canvas.rectangle(x: faceBox.x, y: faceBox.y, width: faceBox.width, height: faceBox.height, color: .cyan)
            for p in shape.points { canvas.dot(x: Double(p.x), y: Double(p.y), radius: 2, color: .green) }
            try JPEGEncoder.encode(canvas, quality: 90).write(to: URL(fileURLWithPath: draw))
        }
    }
}

extension GrayConversion: ExpressibleByArgument {}

/// Parses "x,y,w,h" into a box with positive size.
func parseBox(_ text: String) throws -> FaceBox {
    let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w > 0, h > 0 else {
        throw ValidationError("a box is x,y,w,h with whole numbers and w, h > 0; got \"\(text)\"")
    }
    return FaceBox(x: x, y: y, width: w, height: h)
}

/// Reads a whole file, with an error naming the path.
func readFile(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CommandError("\(path): cannot read the file")
    }
    return data
}

/// Runs a decode of the image at `path`; a bad image becomes an error naming the file.
func decoding<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as JPEGError {
        throw CommandError("\(path): \(error)")
    }
}

/// Formats a coordinate with 3 decimals.
func format(_ value: Float) -> String {
    String(format: "%.3f", Double(value))
}

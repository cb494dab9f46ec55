import Foundation
import HOGDetection
import Imaging
import Pipeline

extension BenchCommand {
    /// dlib's HOG face detector on varied 640×480 frames (every 640×480 JPEG in `--hog-frames`
    /// and the micro-benchmark image), cycled so no frame is scanned twice in a row: the full
    /// frame at upsample 0 and 1, and the area around the face of the micro-benchmark image.
    func benchHOG() throws -> [(String, TimingSummary)] {
        let detector = try FrontalFaceDetector(contentsOf: hogModel)
        var decoder = JPEGDecoder()
        var paths = (try? FileManager.default.contentsOfDirectory(atPath: hogFrames))?.sorted()
            .filter { $0.hasSuffix(".jpg") }.map { hogFrames + "/" + $0 } ?? []
        paths.append(image)
        let frames = try paths.map { try decoder.decodeGray(readFile($0)) }.filter { $0.width == 640 && $0.height == 480 }
        guard let still = frames.last, !frames.isEmpty else { throw CommandError("no 640×480 frames for the HOG benchmark") }
        let workspace = HOGWorkspace()
        var next = 0
        func frame() -> GrayImage {
            next = (next + 1) % frames.count
            return frames[next]
        }
        guard let face = detector.detect(still, using: workspace).first else {
            throw CommandError("\(image): the HOG detector finds no face")
        }
        let area = ScanArea.around(face)
        let fullIterations = max(20, iterations / 20)
        return [
            ("hog full frame, up 0", try measure(fullIterations) { _ = detector.detect(frame(), using: workspace) }),
            ("hog full frame, up 1", try measure(max(10, fullIterations / 4)) {
                _ = detector.detect(frame(), upsample: 1, using: workspace)
            }),
            ("hog around the face", try measure(iterations) {
                precondition(!detector.detect(still, in: area, using: workspace).isEmpty, "the face was lost")
            }),
        ]
    }
}

import Config
import Foundation
import HOGDetection
import Imaging
import Pipeline
import Recordings

extension Benchmark {
    /// dlib's HOG face detector on varied frames: every 15th frame of every benchmarked recording
    /// (plus the 640×480 JPEGs of `--hog-frames` when given), cycled so no frame is scanned twice
    /// in a row: the full frame at upsample 0 and 1 (on one thread, then split over two: wall
    /// time), and the area around the face of the first recording's first frame.
    func benchHOG(_ recordings: [Recording], _ configuration: Configuration) throws -> [(String, TimingSummary)] {
        let detector = try FrontalFaceDetector(contentsOf: configuration.faceDetectorModel)
        var decoder = JPEGDecoder()
        var frames: [GrayImage] = []
        for recording in recordings {
            for number in stride(from: 0, to: recording.frames.count, by: 15) {
                frames.append(try decoder.decodeGray(recording.jpeg(number), conversion: configuration.gray))
            }
        }
        let still = frames[0]
        if let hogFrames {
            let added = try Self.jpegs(in: hogFrames).map { try decoder.decodeGray(Self.contents(of: $0)) }
                .filter { $0.width == 640 && $0.height == 480 }
            guard !added.isEmpty else { throw BenchmarkError("--hog-frames \(hogFrames): no 640×480 .jpg in the folder") }
            frames += added
        }
        let workspace = HOGWorkspace(), twoThreads = HOGWorkspace(threads: 2)
        var next = 0
        func frame() -> GrayImage {
            next = (next + 1) % frames.count
            return frames[next]
        }
        guard let face = detector.detect(still, using: workspace).first else {
            throw BenchmarkError("frame 0 of \(recordings[0].directory): the HOG detector finds no face")
        }
        let area = ScanArea.around(face)
        let fullIterations = max(20, iterations / 20)
        return [
            ("hog full frame, up 0", try measure(fullIterations) { _ = detector.detect(frame(), using: workspace) }),
            ("hog full frame, up 1", try measure(max(10, fullIterations / 4)) {
                _ = detector.detect(frame(), upsample: 1, using: workspace)
            }),
            ("hog 2 threads, up 0", try measure(fullIterations) {
                _ = detector.detect(frame(), using: twoThreads)
            }),
            ("hog 2 threads, up 1", try measure(max(10, fullIterations / 4)) {
                _ = detector.detect(frame(), upsample: 1, using: twoThreads)
            }),
            ("hog around the face", try measure(iterations) {
                precondition(!detector.detect(still, in: area, using: workspace).isEmpty, "the face was lost")
            }),
        ]
    }

    /// The `.jpg` files of `folder` (`--hog-frames`), sorted; a folder that cannot be read or holds
    /// none is an error naming it.
    public static func jpegs(in folder: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BenchmarkError("--hog-frames \(folder): cannot read the folder (\((error as NSError).localizedDescription))")
        }
        let paths = names.sorted().filter { $0.hasSuffix(".jpg") }.map { folder + "/" + $0 }
        guard !paths.isEmpty else { throw BenchmarkError("--hog-frames \(folder): no .jpg in the folder") }
        return paths
    }
}

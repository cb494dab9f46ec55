@testable import HOGDetection
import XCTest

/// dlib's bilinear resize: the AVX2 kernel against the Swift path it speeds up, pixel for pixel,
/// on random images (every gray value, sharp edges) at the pyramid's own sizes.
final class PyramidResizeTests: XCTestCase {
    func testTheAVX2KernelGivesTheSamePixels() throws {
        try XCTSkipUnless(CPUFeatures.avx2, "this CPU has no AVX2")
        var random = SystemRandomNumberGenerator()
        let sizes = [(640, 480), (533, 400), (81, 80), (97, 61), (23, 40)]
        for (width, height) in sizes {
            let input = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let targets = [PyramidResize.downSize(width: width, height: height),
                           PyramidResize.upSize(width: width, height: height)]
            for (outWidth, outHeight) in targets {
                var results: [[UInt8]] = []
                for avx2 in [false, true] {
                    var output = [UInt8](repeating: 0, count: outWidth * outHeight)
                    input.withUnsafeBufferPointer { input in
                        PyramidResize.resize(input.baseAddress!, width: width, height: height, into: &output,
                                             width: outWidth, height: outHeight, columns: PyramidResize.Columns(), avx2: avx2)
                    }
                    results.append(output)
                }
                let differing = zip(results[0], results[1]).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(width)×\(height) → \(outWidth)×\(outHeight)")
            }
        }
    }

    /// A flat image stays flat and the corners keep their values (the resize interpolates, it
    /// does not shift or scale the gray levels), on both paths.
    func testFlatAndCornerValuesAreKept() {
        let width = 48, height = 40
        var input = [UInt8](repeating: 200, count: width * height)
        input[0] = 7
        input[width * height - 1] = 90
        let (outWidth, outHeight) = PyramidResize.downSize(width: width, height: height)
        for avx2 in [false, CPUFeatures.avx2] {
            var output = [UInt8](repeating: 0, count: outWidth * outHeight)
            input.withUnsafeBufferPointer { input in
                PyramidResize.resize(input.baseAddress!, width: width, height: height, into: &output,
                                     width: outWidth, height: outHeight, columns: PyramidResize.Columns(), avx2: avx2)
            }
            XCTAssertEqual(output[0], 7, "avx2 \(avx2)")
            XCTAssertEqual(output[outWidth * outHeight - 1], 90, "avx2 \(avx2)")
            XCTAssertEqual(output[outWidth * (outHeight / 2) + outWidth / 2], 200, "avx2 \(avx2)")
        }
    }
}

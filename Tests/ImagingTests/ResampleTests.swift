import Foundation
@testable import Imaging
import XCTest

/// `GrayImage.resample`: the rotated, scaled bilinear grid the detectors' confirmation windows
/// (and the cascade's turned looks) are cut with.
final class ResampleTests: XCTestCase {
    /// A 24 × 16 image whose every pixel differs from its neighbours.
    private let image: GrayImage = {
        let width = 24, height = 16
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = UInt8((x * 37 + y * 11 + (x * y) % 7) % 256) }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }()

    private func resampled(centerX: Double, centerY: Double, scale: Double = 1, angle: Double = 0,
                           width: Int, height: Int) -> GrayImage {
        var output = GrayImage(width: 0, height: 0)
        image.resample(centerX: centerX, centerY: centerY, scale: scale, angle: angle,
                       toWidth: width, height: height, into: &output)
        return output
    }

    func testTheSameGridGivesTheImageBack() {
        let output = resampled(centerX: 12, centerY: 8, width: 24, height: 16)
        XCTAssertEqual(output, image)
    }

    func testAShiftedGridSamplesWholePixels() {
        // Centre 3 px right and 2 px down: output (x, y) is source (x + 3, y + 2).
        let output = resampled(centerX: 8, centerY: 6, width: 10, height: 8)
        for y in 0..<8 {
            for x in 0..<10 { XCTAssertEqual(output[x, y], image[x + 3, y + 2], "(\(x), \(y))") }
        }
    }

    func testHalfPixelsAreTheMeanOfTheirNeighbours() {
        // Centre half a pixel right: each output pixel lies between two source columns.
        let output = resampled(centerX: 12.5, centerY: 8, width: 20, height: 16)
        for y in 0..<16 {
            for x in 0..<20 {
                let mean = (Double(image[x + 2, y]) + Double(image[x + 3, y])) / 2
                XCTAssertEqual(Double(output[x, y]), (mean + 0.5).rounded(.down), accuracy: 0, "(\(x), \(y))")
            }
        }
    }

    func testAQuarterTurnTurnsTheImage() {
        // A 16 × 16 grid centred on (12, 8) and turned by 90°: output (x, y) samples source
        // x = 12 − (y + 0.5 − 8) − 0.5 = 19 − y and y = 8 + (x + 0.5 − 8) − 0.5 = x.
        let output = resampled(centerX: 12, centerY: 8, angle: Double.pi / 2, width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                // cos(π/2) is 6e-17, not 0: a value may round one grey level either way.
                XCTAssertEqual(Double(output[x, y]), Double(image[19 - y, x]), accuracy: 1, "(\(x), \(y))")
            }
        }
    }

    func testBeyondTheEdgeTheEdgePixelsAreExtended() {
        let output = resampled(centerX: -100, centerY: -100, width: 5, height: 5)
        XCTAssertEqual(output.pixels, [UInt8](repeating: image[0, 0], count: 25))
        let right = resampled(centerX: 1000, centerY: 8, width: 3, height: 16)
        for y in 0..<16 { XCTAssertEqual(right[1, y], image[23, y]) }
    }

    func testAnEmptyImageOrGridGivesAnEmptyOrUntouchedResult() {
        var output = GrayImage(width: 0, height: 0)
        GrayImage(width: 0, height: 0).resample(centerX: 0, centerY: 0, scale: 1, toWidth: 4, height: 4, into: &output)
        XCTAssertEqual(output.width, 4)
        image.resample(centerX: 0, centerY: 0, scale: 1, toWidth: 0, height: 3, into: &output)
        XCTAssertTrue(output.isEmpty)
    }

    /// The AVX2 kernel gives the Swift loop's pixels, bit for bit: grids inside, across and
    /// outside the edges, turned and scaled, widths that are not a multiple of 4, a 1 × 1 source.
    func testTheAVX2KernelGivesTheSamePixels() throws {
        try XCTSkipUnless(GrayImage.avx2, "this CPU has no AVX2")
        var random = SystemRandomNumberGenerator()
        let sources = [(97, 61), (640, 480), (1, 1), (3, 200)].map { width, height in
            GrayImage(width: width, height: height,
                      pixels: (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        var differing = 0, compared = 0
        for source in sources {
            for _ in 0..<40 {
                let centerX = Double.random(in: -20...(Double(source.width) + 20), using: &random)
                let centerY = Double.random(in: -20...(Double(source.height) + 20), using: &random)
                let scale = Double.random(in: 0.3...3, using: &random), angle = Double.random(in: -1...1, using: &random)
                let width = Int.random(in: 1...70, using: &random), height = Int.random(in: 1...50, using: &random)
                var plain = GrayImage(width: 0, height: 0), vector = GrayImage(width: 0, height: 0)
                source.resample(centerX: centerX, centerY: centerY, scale: scale, angle: angle, toWidth: width,
                                height: height, into: &plain, avx2: false)
                source.resample(centerX: centerX, centerY: centerY, scale: scale, angle: angle, toWidth: width,
                                height: height, into: &vector, avx2: true)
                differing += zip(plain.pixels, vector.pixels).filter { $0 != $1 }.count
                compared += plain.pixels.count
            }
        }
        XCTAssertEqual(differing, 0, "of \(compared) pixels")
        XCTAssertGreaterThan(compared, 100_000)
    }
}

@testable import HOGDetection
import XCTest

/// fHOG features: the histograms against dlib's vote loop written out plainly, the AVX2 kernels
/// (votes, block normalisation) against the baseline ones and paired rows of votes against single
/// rows, bit for bit, and reused buffers against fresh ones (the padding is zeroed around the
/// features, not with them).
final class FHOGTests: XCTestCase {
    /// Random pixels with flat patches and sharp edges, so that the block norms and the clipping
    /// at 0.2 both come into play.
    private func image(width: Int, height: Int) -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return (0..<(width * height)).map { index in
            let x = index % width, y = index / width
            if (x / 24 + y / 24) % 3 == 0 { return 128 }
            return (x / 11 + y / 7) % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : UInt8(truncatingIfNeeded: x * 3)
        }
    }

    private func features(_ pixels: [UInt8], width: Int, height: Int, avx2: Bool, pairedRows: Bool = true,
                          into buffers: inout FHOG.Buffers) -> [UInt32] {
        pixels.withUnsafeBufferPointer { pixels in
            FHOG.extract(pixels.baseAddress!, width: width, height: height, cellSize: 8, filterRows: 10, filterColumns: 10,
                         into: &buffers, avx2: avx2, pairedRows: pairedRows)
        }
        return buffers.planes.prefix(FHOG.planeCount * buffers.planeSize).map(\.bitPattern)
    }

    func testTheAVX2KernelsGiveTheSameFeatures() throws {
        try XCTSkipUnless(CPUFeatures.avx2, "this CPU has no AVX2")
        for (width, height) in [(640, 480), (533, 400), (97, 61), (150, 43)] {
            let pixels = image(width: width, height: height)
            var plain = FHOG.Buffers(), vector = FHOG.Buffers()
            let expected = features(pixels, width: width, height: height, avx2: false, into: &plain)
            let actual = features(pixels, width: width, height: height, avx2: true, into: &vector)
            XCTAssertEqual(plain.rows, vector.rows)
            XCTAssertEqual(expected.count, actual.count)
            XCTAssertEqual(zip(expected, actual).filter { $0 != $1 }.count, 0, "\(width)×\(height)")
            XCTAssertGreaterThan(Set(actual).count, 1000, "\(width)×\(height): the features vary")
        }
    }

    /// dlib's vote loop (`extract_fhog_features`) written out plainly: pixel after pixel, its bin
    /// (`FHOG.orientationBin`, the table's source), four adds straight into the histogram rows,
    /// the 8-wide path's weights for the columns it covers and the scalar path's for the rest.
    private func dlibHistogram(_ pixels: [UInt8], width: Int, height: Int) -> [Float] {
        let cellsRows = Int(Double(Float(height) / 8) + 0.5), cellsColumns = Int(Double(Float(width) / 8) + 0.5)
        let stride = (cellsColumns + 2) * 18
        var hist = [Float](repeating: 0, count: (cellsRows + 2) * stride)
        let visibleRows = min(cellsRows * 8, height) - 1, visibleColumns = min(cellsColumns * 8, width) - 1
        var blockEnd = 1
        while blockEnd < visibleColumns - 7 { blockEnd += 8 }
        for y in 1..<max(visibleRows, 1) {
            let yp = Float((Double(y) + 0.5) / 8 - 0.5)
            let iyp = Int(yp.rounded(.down))
            let vy0 = yp - Float(iyp), vy1 = Float(1.0 - Double(vy0))
            let top = (iyp + 1) * stride, bottom = top + stride
            for x in 1..<max(visibleColumns, 1) {
                let gx = Int(pixels[y * width + x + 1]) - Int(pixels[y * width + x - 1])
                let gy = Int(pixels[(y + 1) * width + x]) - Int(pixels[(y - 1) * width + x])
                let v = Float(gx * gx + gy * gy).squareRoot()
                let bin = FHOG.orientationBin(gx: gx, gy: gy)
                if x < blockEnd {
                    let xp = (Float(x) + 0.5) / 8 + 0.5
                    let column = Int(xp), vx0 = xp - Float(column)
                    let w0 = (1 - vx0) * v, w1 = vx0 * v
                    hist[top + column * 18 + bin] += vy1 * w0
                    hist[bottom + column * 18 + bin] += vy0 * w0
                    hist[top + (column + 1) * 18 + bin] += vy1 * w1
                    hist[bottom + (column + 1) * 18 + bin] += vy0 * w1
                } else {
                    let xp = Float((Double(x) + 0.5) / 8 - 0.5)
                    let ixp = Int(xp.rounded(.down)), vx0 = xp - Float(ixp), vx1 = Float(1.0 - Double(vx0))
                    hist[top + (ixp + 1) * 18 + bin] += vy1 * vx1 * v
                    hist[bottom + (ixp + 1) * 18 + bin] += vy0 * vx1 * v
                    hist[top + (ixp + 2) * 18 + bin] += vy1 * vx0 * v
                    hist[bottom + (ixp + 2) * 18 + bin] += vy0 * vx0 * v
                }
            }
        }
        return hist
    }

    /// The histograms the vote kernels build (bands of rows interleaved, two rows at once, the
    /// table lookups first) against dlib's loop written out plainly, bit for bit.
    func testTheVotesAreDlibsSums() {
        for (width, height) in [(640, 480), (1001, 97), (43, 40), (31, 33), (150, 43), (40, 26)] {
            let pixels = image(width: width, height: height)
            let expected = dlibHistogram(pixels, width: width, height: height).map(\.bitPattern)
            for avx2 in [false, CPUFeatures.avx2] {
                for pairedRows in [false, true] {
                    var buffers = FHOG.Buffers()
                    _ = features(pixels, width: width, height: height, avx2: avx2, pairedRows: pairedRows, into: &buffers)
                    let actual = buffers.histogram.prefix(expected.count).map(\.bitPattern)
                    XCTAssertEqual(zip(expected, actual).filter { $0 != $1 }.count, 0,
                                   "\(width)×\(height), avx2 \(avx2), paired \(pairedRows)")
                }
            }
            XCTAssertGreaterThan(Set(expected).count, 100, "\(width)×\(height): the histogram varies")
        }
    }

    /// Two rows' votes interleaved, the later row 16 pixels behind, against the rows one after the
    /// other: every histogram sum in the same order, so the same bits. The widths put the rows'
    /// 8-wide parts just below, at and above the lag, and leave 0–7 pixels for the scalar path.
    func testPairedRowsGiveTheFeaturesOfRowsOneAtATime() {
        for (width, height) in [(640, 480), (1001, 97), (43, 40), (24, 37), (26, 35), (31, 33), (150, 43)] {
            let pixels = image(width: width, height: height)
            var single = FHOG.Buffers(), paired = FHOG.Buffers()
            let expected = features(pixels, width: width, height: height, avx2: CPUFeatures.avx2, pairedRows: false,
                                    into: &single)
            let actual = features(pixels, width: width, height: height, avx2: CPUFeatures.avx2, into: &paired)
            XCTAssertEqual(expected.count, actual.count, "\(width)×\(height)")
            XCTAssertEqual(zip(expected, actual).filter { $0 != $1 }.count, 0, "\(width)×\(height)")
            XCTAssertGreaterThan(Set(actual).count, 10, "\(width)×\(height): the features vary")
        }
    }

    func testReusedBuffersGiveTheFeaturesOfFreshOnes() {
        let large = image(width: 320, height: 240), small = image(width: 150, height: 101)
        var reused = FHOG.Buffers()
        _ = features(large, width: 320, height: 240, avx2: CPUFeatures.avx2, into: &reused)
        let again = features(small, width: 150, height: 101, avx2: CPUFeatures.avx2, into: &reused)
        var fresh = FHOG.Buffers()
        let expected = features(small, width: 150, height: 101, avx2: CPUFeatures.avx2, into: &fresh)
        XCTAssertEqual(again, expected)
        // The padding: 4 rows and columns before the features, 5 after, all zero.
        let columns = fresh.columns
        for plane in 0..<FHOG.planeCount {
            let first = plane * fresh.planeSize
            XCTAssertTrue(again[first..<(first + 4 * columns)].allSatisfy { $0 == 0 }, "plane \(plane): top padding")
            XCTAssertTrue(again[(first + fresh.planeSize - 5 * columns)..<(first + fresh.planeSize)].allSatisfy { $0 == 0 },
                          "plane \(plane): bottom padding")
        }
    }
}

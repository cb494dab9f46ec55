// LOCAL PROBE — not to be committed.
import Foundation
import XCTest
@testable import HOGDetection
import Imaging

final class ZZSpeedProbe: XCTestCase {
    func testZZProbe() throws {
        let detector = try HOGFixture.detector()
        print("parts per filter:", detector.filters.map(\.count), "taps", detector.filters[0][0].row.count)
        let names = try FileManager.default.contentsOfDirectory(atPath: HOGFixture.folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        let frames = try names.map { try HOGFixture.gray($0) }.filter { $0.width == 640 && $0.height == 480 }
        let ws = HOGWorkspace()
        func time(_ label: String, _ n: Int, _ body: (Int) -> Void) {
            for i in 0..<max(1, n / 10) { body(i) }
            let t0 = DispatchTime.now().uptimeNanoseconds
            for i in 0..<n { body(i) }
            let t1 = DispatchTime.now().uptimeNanoseconds
            print(String(format: "%@: %.3f ms", label, Double(t1 - t0) / 1e6 / Double(n)))
        }
        let n = Int(ProcessInfo.processInfo.environment["PROBE_N"] ?? "40")!
        time("up0", n) { i in _ = detector.detect(frames[i % frames.count], using: ws) }
        time("up1", max(4, n / 4)) { i in _ = detector.detect(frames[i % frames.count], upsample: 1, using: ws) }
        let still = frames[0]
        let face = detector.detect(still, using: ws).first!
        let area = ScanArea.around(face)
        time("around", n * 10) { _ in _ = detector.detect(still, in: area, using: ws) }
        // stage breakdown on frame 0, full pyramid
        let f = frames[1]; let cols = PyramidResize.Columns()
        var levels: [(Int, Int, [UInt8])] = [(640, 480, f.pixels)]
        while true {
            let (w, h, p) = levels.last!
            let s = PyramidResize.downSize(width: w, height: h)
            if s.width < 80 || s.height < 80 { break }
            var out = [UInt8](repeating: 0, count: s.width * s.height)
            p.withUnsafeBufferPointer { ip in out.withUnsafeMutableBufferPointer { op in
                PyramidResize.resize(ip.baseAddress!, width: w, height: h, into: op.baseAddress!, width: s.width, height: s.height, columns: cols) } }
            levels.append((s.width, s.height, out))
        }
        time("resize all levels", n) { _ in
            for l in 1..<levels.count {
                let (w, h, p) = levels[l - 1]; let (ow, oh, _) = levels[l]
                var out = levels[l].2
                p.withUnsafeBufferPointer { ip in out.withUnsafeMutableBufferPointer { op in
                    PyramidResize.resize(ip.baseAddress!, width: w, height: h, into: op.baseAddress!, width: ow, height: oh, columns: cols) } }
            }
        }
        var buffers = FHOG.Buffers()
        time("fhog all levels", n) { _ in
            for (w, h, p) in levels {
                p.withUnsafeBufferPointer { FHOG.extract($0.baseAddress!, width: w, height: h, cellSize: 8, filterRows: 10, filterColumns: 10, into: &buffers) }
            }
        }
        var feats: [(Int, Int, [Float])] = []
        for (w, h, p) in levels {
            p.withUnsafeBufferPointer { FHOG.extract($0.baseAddress!, width: w, height: h, cellSize: 8, filterRows: 10, filterColumns: 10, into: &buffers) }
            feats.append((buffers.rows, buffers.columns, Array(buffers.planes[0..<(31 * buffers.rows * buffers.columns)])))
        }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 200000)
        let resp = UnsafeMutablePointer<Float>.allocate(capacity: 200000)
        time("correlation all levels", n) { _ in
            for (r, c, planes) in feats {
                planes.withUnsafeBufferPointer { pl in
                    for parts in detector.filters {
                        resp.update(repeating: 0, count: r * c)
                        for part in parts {
                            SeparableCorrelation.apply(part, to: pl.baseAddress! + part.plane * r * c, rows: r, columns: c, scratch: scratch, addingTo: resp)
                        }
                    }
                }
            }
        }
        print("levels", levels.count)
    }
}

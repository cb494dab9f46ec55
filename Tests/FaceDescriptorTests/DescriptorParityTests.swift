import FaceDescriptor
import Foundation
import Imaging
import XCTest

/// Swift against dlib-bin on the committed fixtures: the same decoded pixels and 68 points give
/// dlib's chip (every byte exactly) and dlib's descriptor (each value within 1e-4).
final class DescriptorParityTests: XCTestCase {
    func testFixturesDecodeToTheSamePixelsDlibSaw() throws {
        let faces = try DescriptorFixtures.faces()
        XCTAssertGreaterThanOrEqual(faces.count, 10)
        XCTAssertGreaterThanOrEqual(Set(faces.map(\.person)).count, 10)
        for face in faces {
            let image = try DescriptorFixtures.image(face)
            XCTAssertEqual(image.width, face.width, face.name)
            XCTAssertEqual(image.height, face.height, face.name)
            XCTAssertEqual(DescriptorFixtures.fnv1a64(image.pixels), face.pixels_fnv1a64, "\(face.name): decoded pixels differ from PIL's")
        }
    }

    func testChipMatchesDlibGetFaceChip() throws {
        var chip = FaceChip()
        var total = 0, exact = 0, worst = 0, throughPyramid = 0
        for face in try DescriptorFixtures.faces() {
            let image = try DescriptorFixtures.image(face)
            try chip.extract(from: image, points: DescriptorFixtures.points(face))
            if chip.pyramidLevel > 0 { throughPyramid += 1 }
            let expected = try [UInt8](Data(contentsOf: DescriptorFixtures.folder.appendingPathComponent(face.chip)))
            XCTAssertEqual(expected.count, chip.pixels.count)
            var faceWorst = 0
            for (a, b) in zip(chip.pixels, expected) {
                let d = abs(Int(a) - Int(b))
                faceWorst = max(faceWorst, d)
                if d == 0 { exact += 1 }
                total += 1
            }
            XCTAssertEqual(faceWorst, 0, "\(face.name): a chip byte differs from dlib's by \(faceWorst)")
            worst = max(worst, faceWorst)
        }
        XCTAssertEqual(exact, total, "\(exact) of \(total) chip bytes equal dlib's")
        XCTAssertGreaterThan(throughPyramid, 0, "a fixture must take dlib's image-pyramid path")
        print("chip bytes equal to dlib's: \(exact) of \(total); largest difference \(worst); \(throughPyramid) chips through the pyramid")
    }

    func testDescriptorMatchesDlibComputeFaceDescriptor() throws {
        let network = try DescriptorFixtures.network()
        var chip = FaceChip()
        var worst = 0.0
        for face in try DescriptorFixtures.faces() {
            let image = try DescriptorFixtures.image(face)
            try chip.extract(from: image, points: DescriptorFixtures.points(face))
            let descriptor = network.describe(chip: chip.pixels)
            XCTAssertEqual(face.descriptor.count, 128)
            for (i, (mine, theirs)) in zip(descriptor.values, face.descriptor).enumerated() {
                let d = abs(Double(mine) - theirs)
                worst = max(worst, d)
                XCTAssertLessThanOrEqual(d, 1e-4, "\(face.name) value \(i): \(mine) vs dlib \(theirs)")
            }
        }
        print("largest descriptor difference from dlib: \(worst)")
    }
}

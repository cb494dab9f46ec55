import FaceCore
import Foundation
import Imaging
@testable import Landmarks
import XCTest

/// Compares our fit with dlib's on the committed fixtures (`Scripts/make_landmark_fixtures.py`):
/// dlib's integer points from its Python binding and its unrounded points from dlib's own C++
/// prediction code (`Scripts/dlib_float_landmarks.cpp`).
final class DlibParityTests: XCTestCase {
    private struct Fixture: Decodable {
        struct Image: Decodable {
            let file: String
            let width: Int
            let height: Int
            let pixels_sha256: String
            let conversion: String?
        }
        struct Case: Decodable {
            let image: String
            let box: [Int]
            let kind: String
            let points: [[Int]]
            let points_float: [[Double]]?
        }
        let images: [Image]
        let cases: [Case]
    }

    private func loadFixture() throws -> Fixture {
        let data = try Data(contentsOf: ModelFixture.fixture("landmarks/landmarks.json"))
        return try JSONDecoder().decode(Fixture.self, from: data)
    }

    private func decode(_ image: Fixture.Image) throws -> GrayImage {
        var decoder = JPEGDecoder()
        let jpeg = try Data(contentsOf: ModelFixture.fixture("landmarks/\(image.file)"))
        let conversion = GrayConversion(rawValue: image.conversion ?? "luma") ?? .luma
        return try decoder.decodeGray(jpeg, conversion: conversion)
    }

    func testDecodedPixelsAreTheOnesDlibSaw() throws {
        let fixture = try loadFixture()
        XCTAssertGreaterThanOrEqual(fixture.images.count, 5)
        for image in fixture.images {
            let gray = try decode(image)
            XCTAssertEqual(gray.width, image.width, image.file)
            XCTAssertEqual(gray.height, image.height, image.file)
            XCTAssertEqual(SHA256.hex(gray.pixels), image.pixels_sha256, image.file)
        }
    }

    func testPointsMatchDlibBeforeAndAfterRounding() throws {
        let fixture = try loadFixture()
        let predictor = try ModelFixture.predictor()
        var images: [String: GrayImage] = [:]
        for image in fixture.images { images[image.file] = try decode(image) }
        XCTAssertGreaterThanOrEqual(fixture.cases.count, 30)
        var worst = 0.0, compared = 0
        for (n, testCase) in fixture.cases.enumerated() {
            let image = try XCTUnwrap(images[testCase.image])
            let box = FaceBox(x: testCase.box[0], y: testCase.box[1], width: testCase.box[2], height: testCase.box[3])
            let shape = predictor.fit(image, box: box)
            let label = "case \(n) (\(testCase.image), \(testCase.kind), box \(testCase.box))"
            XCTAssertEqual(shape.count, 68, label)
            for (k, point) in shape.points.enumerated() {
                if let exact = testCase.points_float?[k] {
                    let error = max(abs(Double(point.x) - exact[0]), abs(Double(point.y) - exact[1]))
                    worst = max(worst, error)
                    compared += 1
                    XCTAssertLessThan(error, 0.01, "\(label), point \(k)")
                }
                XCTAssertEqual(shape.dlibRounded[k], SIMD2(testCase.points[k][0], testCase.points[k][1]), "\(label), point \(k)")
            }
        }
        XCTAssertGreaterThan(compared, 68 * 30, "unrounded reference points present")
        print("dlib parity: \(fixture.cases.count) cases, worst unrounded difference \(worst) px over \(compared) points")
    }

    /// The AVX2 leaf sums give the Swift path's points bit for bit (the same adds in the same
    /// order), on every fixture case and on boxes moved off them.
    func testBothLeafSumKernelsGiveTheSamePoints() throws {
        try XCTSkipUnless(ShapePredictor.avx2, "this CPU has no AVX2")
        let fixture = try loadFixture()
        let predictor = try ModelFixture.predictor()
        var images: [String: GrayImage] = [:]
        for image in fixture.images { images[image.file] = try decode(image) }
        var plain = FaceShape(points: []), vector = FaceShape(points: [])
        for testCase in fixture.cases {
            let image = try XCTUnwrap(images[testCase.image])
            for shift in [0, 7] {
                let box = FaceBox(x: testCase.box[0] + shift, y: testCase.box[1] - shift, width: testCase.box[2],
                                  height: testCase.box[3])
                predictor.fit(image, box: box, into: &plain, avx2: false)
                predictor.fit(image, box: box, into: &vector, avx2: true)
                XCTAssertEqual(plain.points.map { $0.x.bitPattern }, vector.points.map { $0.x.bitPattern }, "\(box)")
                XCTAssertEqual(plain.points.map { $0.y.bitPattern }, vector.points.map { $0.y.bitPattern }, "\(box)")
            }
        }
    }

    func testFitIsDeterministicAndReusesStorage() throws {
        let fixture = try loadFixture()
        let predictor = try ModelFixture.predictor()
        let image = try decode(try XCTUnwrap(fixture.images.first))
        let box = FaceBox(x: fixture.cases[0].box[0], y: fixture.cases[0].box[1],
                          width: fixture.cases[0].box[2], height: fixture.cases[0].box[3])
        let first = predictor.fit(image, box: box)
        var shape = FaceShape(points: [])
        predictor.fit(image, box: box, into: &shape)
        let storage = shape.points.withUnsafeBufferPointer { $0.baseAddress }
        predictor.fit(image, box: FaceBox(x: box.x + 3, y: box.y, width: box.width, height: box.height), into: &shape)
        XCTAssertNotEqual(shape, first, "a shifted box gives another fit")
        predictor.fit(image, box: box, into: &shape)
        XCTAssertEqual(shape, first, "the same image and box give the same points")
        XCTAssertEqual(shape.points.withUnsafeBufferPointer { $0.baseAddress }, storage, "no new storage")
    }

    func testEmptyImageAndBoxesOutsideTheFrameDoNotCrash() throws {
        let predictor = try ModelFixture.predictor()
        let empty = GrayImage(width: 0, height: 0)
        let onEmpty = predictor.fit(empty, box: FaceBox(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(onEmpty.count, 68)
        // Every sampled pixel reads 0 outside the image, as in dlib: the fit still gives 68 finite points.
        let image = GrayImage(width: 64, height: 48, fill: 128)
        for box in [FaceBox(x: -5000, y: -5000, width: 80, height: 80), FaceBox(x: 10, y: 10, width: 1, height: 1),
                    FaceBox(x: 0, y: 0, width: 1_000_000, height: 1_000_000)] {
            let shape = predictor.fit(image, box: box)
            XCTAssertTrue(shape.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(box)")
        }
    }
}

import Foundation
import Imaging

/// dlib's aligned face chip: `get_face_chip_details(shape, 150, 0.25)` then
/// `extract_image_chip(img, details, chip)` with bilinear interpolation and, for faces larger than
/// twice the chip, dlib's `pyramid_down<2>` first (`dlib/image_transforms/interpolation.h`).
///
/// Takes the 68 landmark points as dlib reports them (integers, `FaceShape.dlibRounded`).
/// Reuses its buffers: extracting a chip of a face that fits in the chip allocates nothing.
public struct FaceChip {
    public static let size = 150
    public static let padding = 0.25

    /// The chip's pixels, 150·150·3 bytes, R, G, B per pixel.
    public private(set) var pixels: [UInt8]
    /// How many times the last chip's image was halved by dlib's pyramid first (0: sampled directly).
    public private(set) var pyramidLevel = 0
    private var levels: [RGBImage] = []
    private var rowSums: [UInt16] = []

    public init() {
        pixels = [UInt8](repeating: 0, count: Self.size * Self.size * 3)
    }

    /// Where the chip lies in the image: dlib's `chip_details` (a rectangle in image pixels,
    /// its rotation in radians).
    public struct Details: Equatable, Sendable {
        public var left: Double, top: Double, right: Double, bottom: Double
        public var angle: Double
    }

    /// dlib's mean face (points 17–67) in the unit square, and which of those points align a chip.
    private static let meanX: [Double] = [
        0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124,
        0.904991, 0.98004, 0.490127, 0.490127, 0.490127, 0.490127, 0.36688, 0.426036,
        0.490127, 0.554217, 0.613373, 0.121737, 0.187122, 0.265825, 0.334606, 0.260918,
        0.182743, 0.645647, 0.714428, 0.793132, 0.858516, 0.79751, 0.719335, 0.254149,
        0.340985, 0.428858, 0.490127, 0.551395, 0.639268, 0.726104, 0.642159, 0.556721,
        0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127, 0.552157, 0.689874,
        0.553364, 0.490127, 0.42689,
    ]
    private static let meanY: [Double] = [
        0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891,
        0.0187482, 0.038915, 0.106454, 0.203352, 0.307009, 0.409805, 0.515625, 0.587326,
        0.609345, 0.628106, 0.609345, 0.587326, 0.216423, 0.178758, 0.179852, 0.231733,
        0.245099, 0.244077, 0.231733, 0.179852, 0.178758, 0.216423, 0.244077, 0.245099,
        0.780233, 0.745405, 0.727388, 0.742578, 0.727388, 0.745405, 0.780233, 0.864805,
        0.902192, 0.909281, 0.902192, 0.864805, 0.784792, 0.778746, 0.785343, 0.778746,
        0.784792, 0.824182, 0.831803, 0.824182,
    ]

    /// `get_face_chip_details(shape, 150, 0.25)` for 68 integer points.
    public static func details(points: [SIMD2<Int>]) throws -> Details {
        guard points.count == 68 else { throw FaceDescriptorError.badShape("\(points.count) landmarks, expected dlib's 68") }
        var from: [(Double, Double)] = [], to: [(Double, Double)] = []
        for i in 17..<68 {
            if (55...59).contains(i) || (65...67).contains(i) || (17...26).contains(i) { continue }
            let x = (padding + meanX[i - 17]) / (2 * padding + 1)
            let y = (padding + meanY[i - 17]) / (2 * padding + 1)
            from.append((x * Double(size), y * Double(size)))
            to.append((Double(points[i].x), Double(points[i].y)))
        }
        // find_similarity_transform(from, to): Umeyama; for a 2×2 covariance with positive
        // determinant c·R = [[a+d, b−c], [c−b, a+d]] / σ²(from).
        let n = Double(from.count)
        var mfx = 0.0, mfy = 0.0, mtx = 0.0, mty = 0.0
        for i in from.indices { mfx += from[i].0; mfy += from[i].1; mtx += to[i].0; mty += to[i].1 }
        mfx /= n; mfy /= n; mtx /= n; mty /= n
        var sigma = 0.0, a = 0.0, b = 0.0, c = 0.0, d = 0.0
        for i in from.indices {
            let fx = from[i].0 - mfx, fy = from[i].1 - mfy, tx = to[i].0 - mtx, ty = to[i].1 - mty
            sigma += fx * fx + fy * fy
            a += tx * fx; b += tx * fy; c += ty * fx; d += ty * fy
        }
        sigma /= n; a /= n; b /= n; c /= n; d /= n
        guard a * d - b * c > 0, sigma > 0 else { throw FaceDescriptorError.badShape("the landmarks are degenerate or mirrored") }
        let m00 = (a + d) / sigma, m10 = (c - b) / sigma
        let m01 = -m10, m11 = m00
        let tx = mtx - (m00 * mfx + m01 * mfy), ty = mty - (m10 * mfx + m11 * mfy)
        let angle = atan2(m10, m00)
        let scale = (m00 * m00 + m10 * m10).squareRoot()
        let half = Double(size) / 2
        let cx = m00 * half + m01 * half + tx, cy = m10 * half + m11 * half + ty
        let w = Double(size) * scale - 1, h = Double(size) * scale - 1
        return Details(left: cx - w / 2, top: cy - h / 2, right: cx + w / 2, bottom: cy + h / 2, angle: angle)
    }

    /// Extracts the chip of the face whose 68 points are `points` into `pixels`.
    public mutating func extract(from image: RGBImage, points: [SIMD2<Int>]) throws {
        let details = try Self.details(points: points)
        guard image.width > 0, image.height > 0 else { throw FaceDescriptorError.badShape("the image is empty") }
        let chipArea = Double(Self.size * Self.size)
        // How deep an image pyramid dlib builds (rect_down until the rect fits the chip's area).
        var rect = Rect(details)
        var depth = 0
        var grow = 2.0
        var down = rect.down()
        while down.area > chipArea {
            down = down.down()
            depth += 1
            grow = grow * 2 + 2
        }
        // The crop dlib works in: the rotated rect grown by `grow`, clipped to the image, rounded.
        let (cxr, cyr) = rect.center
        var rot = Rect.empty
        for (x, y) in [(rect.l, rect.t), (rect.r, rect.t), (rect.l, rect.b), (rect.r, rect.b)] {
            rot = rot.adding(Self.rotate(center: (cxr, cyr), point: (x, y), angle: details.angle))
        }
        let grown = Rect(l: rot.l - grow, t: rot.t - grow, r: rot.r + grow, b: rot.b + grow)
        let clipped = Rect(l: max(grown.l, 0), t: max(grown.t, 0), r: min(grown.r, Double(image.width - 1)),
                           b: min(grown.b, Double(image.height - 1)))
        guard !clipped.isEmpty else { throw FaceDescriptorError.badShape("the face lies outside the image") }
        let boxL = Int(clipped.l.rounded(.toNearestOrAwayFromZero)), boxT = Int(clipped.t.rounded(.toNearestOrAwayFromZero))
        let boxR = Int(clipped.r.rounded(.toNearestOrAwayFromZero)), boxB = Int(clipped.b.rounded(.toNearestOrAwayFromZero))
        guard boxR >= boxL, boxB >= boxT else { throw FaceDescriptorError.badShape("the face lies outside the image") }

        rect = Rect(l: rect.l - Double(boxL), t: rect.t - Double(boxT), r: rect.r - Double(boxL), b: rect.b - Double(boxT))
        var level = -1
        while rect.down().area > chipArea {
            level += 1
            rect = rect.down()
        }
        // The affine map from chip corners onto the (rotated) rect: three points, solved exactly.
        let (ccx, ccy) = rect.center
        let tl = Self.rotate(center: (ccx, ccy), point: (rect.l, rect.t), angle: details.angle)
        let tr = Self.rotate(center: (ccx, ccy), point: (rect.r, rect.t), angle: details.angle)
        let bl = Self.rotate(center: (ccx, ccy), point: (rect.l, rect.b), angle: details.angle)
        let last = Double(Self.size - 1)
        let ax = (tr.0 - tl.0) / last, ay = (tr.1 - tl.1) / last
        let bx = (bl.0 - tl.0) / last, by = (bl.1 - tl.1) / last

        pyramidLevel = level + 1
        if level >= 0 {
            buildPyramid(image, box: (boxL, boxT, boxR, boxB), levels: depth)
            let source = levels[level]
            sample(source.pixels, width: source.width, height: source.height, originX: 0, originY: 0, stride: source.width,
                   tl: tl, ax: ax, ay: ay, bx: bx, by: by)
        } else {
            sample(image.pixels, width: boxR - boxL + 1, height: boxB - boxT + 1, originX: boxL, originY: boxT,
                   stride: image.width, tl: tl, ax: ax, ay: ay, bx: bx, by: by)
        }
    }

    /// transform_image with interpolate_bilinear: each chip pixel (c, r) maps to
    /// tl + c·a + r·b in the crop; outside the crop it is black; values truncate to bytes.
    private mutating func sample(_ src: [UInt8], width: Int, height: Int, originX: Int, originY: Int, stride: Int,
                                 tl: (Double, Double), ax: Double, ay: Double, bx: Double, by: Double) {
        src.withUnsafeBufferPointer { s in
            pixels.withUnsafeMutableBufferPointer { out in
                for r in 0..<Self.size {
                    for c in 0..<Self.size {
                        let px = ax * Double(c) + bx * Double(r) + tl.0
                        let py = ay * Double(c) + by * Double(r) + tl.1
                        let o = 3 * (r * Self.size + c)
                        let left = Int(px.rounded(.down)), top = Int(py.rounded(.down))
                        guard left >= 0, top >= 0, left + 1 < width, top + 1 < height else {
                            out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
                            continue
                        }
                        let fx = px - Double(left), fy = py - Double(top)
                        let i00 = 3 * ((originY + top) * stride + originX + left)
                        let i10 = i00 + 3, i01 = i00 + 3 * stride, i11 = i01 + 3
                        for k in 0..<3 {
                            let v = (1 - fy) * ((1 - fx) * Double(s[i00 + k]) + fx * Double(s[i10 + k]))
                                + fy * ((1 - fx) * Double(s[i01 + k]) + fx * Double(s[i11 + k]))
                            out[o + k] = UInt8(v)
                        }
                    }
                }
            }
        }
    }

    /// dlib's pyramid_down<2> for RGB: 5-tap [1 4 6 4 1] filter in both directions, every other
    /// pixel, integer arithmetic; the first level from the crop `box` of `image`.
    private mutating func buildPyramid(_ image: RGBImage, box: (Int, Int, Int, Int), levels count: Int) {
        levels.removeAll(keepingCapacity: true)
        var width = box.2 - box.0 + 1, height = box.3 - box.1 + 1
        var source = image.pixels, stride = image.width, ox = box.0, oy = box.1
        for _ in 0..<count {
            guard width > 8, height > 8 else {
                levels.append(RGBImage(width: 0, height: 0, pixels: []))
                width = 0; height = 0
                continue
            }
            let tw = (width - 3) / 2, dh = (height - 3) / 2
            if rowSums.count < height * tw * 3 { rowSums = [UInt16](repeating: 0, count: height * tw * 3) }
            for r in 0..<height {
                let row = 3 * ((oy + r) * stride + ox)
                for c in 0..<tw {
                    for k in 0..<3 {
                        let p = row + 3 * 2 * c + k
                        let v = UInt16(source[p]) + 4 * UInt16(source[p + 3]) + 6 * UInt16(source[p + 6])
                            + 4 * UInt16(source[p + 9]) + UInt16(source[p + 12])
                        rowSums[3 * (r * tw + c) + k] = v
                    }
                }
            }
            var down = [UInt8](repeating: 0, count: dh * tw * 3)
            var dr = 0
            var r = 2
            while r < height - 2 {
                for c in 0..<tw {
                    for k in 0..<3 {
                        func at(_ rr: Int) -> UInt32 { UInt32(rowSums[3 * (rr * tw + c) + k]) }
                        let v = (at(r - 2) + 4 * at(r - 1) + 6 * at(r) + 4 * at(r + 1) + at(r + 2)) & 0xFFFF
                        down[3 * (dr * tw + c) + k] = UInt8(v / 256)
                    }
                }
                dr += 1
                r += 2
            }
            let level = RGBImage(width: tw, height: dh, pixels: down)
            levels.append(level)
            source = level.pixels; stride = tw; ox = 0; oy = 0; width = tw; height = dh
        }
    }

    private static func rotate(center: (Double, Double), point: (Double, Double), angle: Double) -> (Double, Double) {
        // dlib's rotate_point: rotate `point` about `center` by `angle`.
        let ca = cos(angle), sa = sin(angle)
        let x = point.0 - center.0, y = point.1 - center.1
        return (ca * x - sa * y + center.0, sa * x + ca * y + center.1)
    }

    /// dlib's drectangle: inclusive edges, width = r − l + 1.
    private struct Rect {
        var l: Double, t: Double, r: Double, b: Double
        static let empty = Rect(l: 0, t: 0, r: -1, b: -1)
        init(l: Double, t: Double, r: Double, b: Double) { self.l = l; self.t = t; self.r = r; self.b = b }
        init(_ d: Details) { self.init(l: d.left, t: d.top, r: d.right, b: d.bottom) }
        var isEmpty: Bool { t > b || l > r }
        var area: Double { isEmpty ? 0 : (r - l + 1) * (b - t + 1) }
        var center: (Double, Double) { ((l + r) / 2, (t + b) / 2) }
        /// pyramid_down<2>::rect_down: each corner p ↦ p/2 − (1.25, 0.75).
        func down() -> Rect { Rect(l: l / 2 - 1.25, t: t / 2 - 0.75, r: r / 2 - 1.25, b: b / 2 - 0.75) }
        func adding(_ p: (Double, Double)) -> Rect {
            if isEmpty { return Rect(l: p.0, t: p.1, r: p.0, b: p.1) }
            return Rect(l: min(l, p.0), t: min(t, p.1), r: max(r, p.0), b: max(b, p.1))
        }
    }
}

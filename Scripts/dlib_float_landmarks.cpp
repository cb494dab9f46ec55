// Dev-time reference tool: dlib's 68-point shape_predictor with the final landmarks printed as
// doubles (before dlib rounds them into dlib::point), next to dlib's own integer output.
//
// Build (Debian 12, `apt-get install -y libdlib-dev`, dlib 19.24 headers; everything used here is
// header-only template code, so no libdlib link is needed):
//   g++ -std=c++14 -O2 -DFLOAT_LANDMARKS_NO_LAPACK Scripts/dlib_float_landmarks.cpp \
//       -o /tmp/dlib_float_landmarks
// FLOAT_LANDMARKS_NO_LAPACK undoes DLIB_USE_BLAS/DLIB_USE_LAPACK from Debian's dlib/config.h so the
// similarity-transform SVD runs dlib's own svd code, as in pip's dlib-bin (built without BLAS/LAPACK:
// dlib.DLIB_USE_BLAS == dlib.DLIB_USE_LAPACK == False). Without that flag (Debian's configuration,
// LAPACK dgesvd + cblas_dgemm), add: -l:liblapack.so.3 -l:libblas.so.3
//
// Usage: dlib_float_landmarks MODEL.dat < jobs
//   Each input line: "PGM_PATH X Y W H" (box is dlib::rectangle(X, Y, X+W-1, Y+H-1)).
//   Each output line: "INT x0 y0 ... x67 y67 | FLOAT x0 y0 ... x67 y67"
//   INT is dlib's own shape_predictor::operator() result; FLOAT is the same prediction loop
//   (copied from dlib/image_processing/shape_predictor.h, operator()) with the last step
//   `parts[i] = tform_to_img(location(current_shape, i))` kept as dlib::vector<double,2>.
// Driven by Scripts/make_landmark_fixtures.py; never run by tests.
// dlib/config.h has no include guard; it is pulled in only by these two guarded headers, so
// including them first makes the #undefs below stick.
#include <dlib/assert.h>
#include <dlib/test_for_odr_violations.h>
#ifdef FLOAT_LANDMARKS_NO_LAPACK
#undef DLIB_USE_BLAS
#undef DLIB_USE_LAPACK
#endif
#undef DLIB_CHECK_FOR_VERSION_MISMATCH  // header-only use: don't require libdlib's version symbol
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/serialize.h>
#include <dlib/array2d.h>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// The private members of dlib::shape_predictor, deserialized in exactly the order
// dlib's deserialize(shape_predictor&, istream&) reads them.
struct Model {
    dlib::matrix<float, 0, 1> initial_shape;
    std::vector<std::vector<dlib::impl::regression_tree>> forests;
    std::vector<std::vector<unsigned long>> anchor_idx;
    std::vector<std::vector<dlib::vector<float, 2>>> deltas;
};

void deserialize_model(Model& item, std::istream& in) {
    int version = 0;
    dlib::deserialize(version, in);
    if (version != 1) throw dlib::serialization_error("unexpected shape_predictor version");
    dlib::deserialize(item.initial_shape, in);
    dlib::deserialize(item.forests, in);
    dlib::deserialize(item.anchor_idx, in);
    dlib::deserialize(item.deltas, in);
}

// dlib's shape_predictor::operator() with the final rounding removed.
template <typename image_type>
std::vector<dlib::vector<double, 2>> predict_float(const Model& m, const image_type& img,
                                                  const dlib::rectangle& rect) {
    using namespace dlib::impl;
    dlib::matrix<float, 0, 1> current_shape = m.initial_shape;
    std::vector<float> feature_pixel_values;
    for (unsigned long iter = 0; iter < m.forests.size(); ++iter) {
        extract_feature_pixel_values(img, rect, current_shape, m.initial_shape, m.anchor_idx[iter],
                                     m.deltas[iter], feature_pixel_values);
        unsigned long leaf_idx;
        for (unsigned long i = 0; i < m.forests[iter].size(); ++i)
            current_shape += m.forests[iter][i](feature_pixel_values, leaf_idx);
    }
    const dlib::point_transform_affine tform_to_img = unnormalizing_tform(rect);
    std::vector<dlib::vector<double, 2>> parts(current_shape.size() / 2);
    for (unsigned long i = 0; i < parts.size(); ++i)
        parts[i] = tform_to_img(location(current_shape, i));
    return parts;
}

// Minimal binary PGM (P5, maxval 255) reader.
void load_pgm(const std::string& path, dlib::array2d<unsigned char>& img) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    std::string magic;
    long w = 0, h = 0, maxval = 0;
    f >> magic >> w >> h >> maxval;
    if (magic != "P5" || maxval != 255 || w <= 0 || h <= 0)
        throw std::runtime_error("not an 8-bit P5 PGM: " + path);
    f.get();  // single whitespace after maxval
    img.set_size(h, w);
    for (long r = 0; r < h; ++r) {
        f.read(reinterpret_cast<char*>(&img[r][0]), w);
        if (!f) throw std::runtime_error("truncated PGM: " + path);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MODEL.dat < jobs\n", argv[0]);
        return 2;
    }
    try {
        std::ifstream fin(argv[1], std::ios::binary);
        if (!fin) throw std::runtime_error(std::string("cannot open ") + argv[1]);
        std::stringstream buf;
        buf << fin.rdbuf();
        const std::string bytes = buf.str();

        dlib::shape_predictor sp;
        {
            std::istringstream in(bytes);
            dlib::deserialize(sp, in);
        }
        Model model;
        {
            std::istringstream in(bytes);
            deserialize_model(model, in);
        }

        std::string line, cached_path;
        dlib::array2d<unsigned char> img;
        while (std::getline(std::cin, line)) {
            if (line.empty()) continue;
            std::istringstream ls(line);
            std::string path;
            long x, y, w, h;
            if (!(ls >> path >> x >> y >> w >> h)) throw std::runtime_error("bad job line: " + line);
            if (path != cached_path) {
                load_pgm(path, img);
                cached_path = path;
            }
            const dlib::rectangle rect(x, y, x + w - 1, y + h - 1);
            const dlib::full_object_detection det = sp(img, rect);
            const auto parts = predict_float(model, img, rect);
            std::printf("INT");
            for (unsigned long i = 0; i < det.num_parts(); ++i)
                std::printf(" %ld %ld", det.part(i).x(), det.part(i).y());
            std::printf(" | FLOAT");
            for (const auto& p : parts) std::printf(" %.17g %.17g", p.x(), p.y());
            std::printf("\n");
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}

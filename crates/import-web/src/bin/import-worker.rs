//! The importer's Web Worker: Kubernetes manifests (or a scenario file) in, a scenario out.
fn main() {
    restartscope_import_web::start();
}

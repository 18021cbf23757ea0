fn main() {
    restartscope::start();
}

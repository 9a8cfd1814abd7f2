import Foundation
import LedgerFuzzTargets

/// libFuzzer's driver (compiler-rt's FuzzerDriver, public since LLVM 11): parses libFuzzer's
/// command line and calls `callback` with every input it makes.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The target this process fuzzes, chosen by `FUZZ_TARGET` before the driver starts.
nonisolated(unsafe) private var target: FuzzTarget = .json

/// libFuzzer's entry point: one input. (The driver is given it below; libFuzzer's own `main`, which
/// the runtime archive also holds, names it too, so it must exist under this name.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// `FUZZ_TARGET=json ledger-fuzz CORPUS… [libFuzzer options]`. The program's own `main` (SwiftPM
/// gives an executable one) hands over to libFuzzer's driver rather than libFuzzer's `main`.
@main
enum LedgerFuzz {
    static func main() {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let chosen = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("ledger-fuzz: set FUZZ_TARGET to one of \(names)\n".utf8))
            exit(2)
        }
        target = chosen
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
    }
}

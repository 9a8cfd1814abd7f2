import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres

extension Demo {
    /// Step 8: sign a checkpoint of the log (creating the demo's signing key on first use), prove
    /// that the story's first age signal is in it, and check that proof offline, as an auditor would.
    func signAndProve(target: DatabaseTarget, folder: URL) async throws {
        let keyPath = SigningKeyOptions.defaultPath(dataFolder: database.dataFolder())
        let key: NoteSigningKey
        if FileManager.default.fileExists(atPath: keyPath) {
            key = try SigningKeyOptions.load(path: keyPath)
        } else {
            key = try NoteSigningKey(generatingWithName: "demo.consent-ledger.local")
            try SigningKeyCreate.write(key, to: keyPath)
        }
        let verifier = key.verifierKey
        let (signed, bundle) = try await Ledger.with(target) { ledger in
            let signed = try await ledger.signCheckpoint(log: log, key: key)
            return (signed, try await ledger.proveInclusion(log: log, position: 3))
        }
        let checkpoint = signed.checkpoint
        Console.note("8. signed checkpoint: the Merkle tree of log \(log) at \(checkpoint.treeSize) leaves, root "
            + "\(LedgerHash.hex(checkpoint.rootHash).prefix(16))…, key \(verifier.name) (\(keyPath))"
            + (signed.isNew ? "" : "; the log had not grown since it was signed"))
        for line in checkpoint.note.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { Console.note("     " + line) }
        let bundlePath = folder.appendingPathComponent("proof-position-3.json").path
        try ProofOutput.write(bundle, to: bundlePath, quietly: true)
        let outcome = try ProofBundleVerifier.verify(bundle, key: verifier)
        Console.note("   proved that position 3 (the teen's age range, shared) is in it: \(bundlePath)")
        Console.note("   checked offline with only the public key: \(outcome.summary)")
        Console.note("   check it yourself: \(Demo.invocation) verify-proof \(bundlePath) --public-key \(verifier.text)")
        Console.note("                  or: tools/verify-proof.py \(bundlePath) --public-key \(verifier.text)")
    }
}

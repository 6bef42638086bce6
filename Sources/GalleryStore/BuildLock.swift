import Foundation
import GalleryKeys
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a site's state folder, held for the whole of a build, a clean or a cache gc.
///
/// It is a `flock` on `state/lock`, so the kernel releases it when the process ends in any way,
/// `kill -9` included; a stale lock file never blocks the next build. The file holds the owner's
/// pid and command, for the message a second build gets.
package final class BuildLock: Sendable {
    package let file: URL
    /// The locked file's descriptor; -1 once released.
    private let descriptor: NIOLockedValueBox<Int32>

    /// Takes the lock, or fails at once if another process holds it.
    /// - Parameter purpose: What the owner is doing, such as `build`, shown to whoever is refused.
    /// - Throws: `StoreError` saying who holds the lock and what to do.
    package static func acquire(stateDirectory: URL, purpose: String) throws -> BuildLock {
        do {
            // The state holds keys, the site secret and captions: the owner's alone (`PrivateFolder`).
            try PrivateFolder.make(stateDirectory)
        } catch {
            throw StoreError.writing(stateDirectory.path, error)
        }
        let file = stateDirectory.appendingPathComponent("lock")
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFolder.fileMode)
        guard descriptor >= 0 else {
            throw StoreError(
                .unopenable,
                "\(file.path): cannot open the lock file (\(String(cString: strerror(errno)))); check the state folder's permissions"
            )
        }
        _ = fchmod(descriptor, PrivateFolder.fileMode)  // an earlier galleryssg's 0644 (it names the config's path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let owner =
                (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            if failure == EWOULDBLOCK {
                let who = owner.isEmpty ? "another galleryssg process" : "another galleryssg process (\(owner))"
                throw StoreError(
                    .locked, "\(file.path): \(who) is using this site's state; wait for it to finish and try again")
            }
            throw StoreError(.unopenable, "\(file.path): cannot lock (\(String(cString: strerror(failure))))")
        }
        let note = "pid \(getpid()), galleryssg \(purpose)\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return BuildLock(file: file, descriptor: descriptor)
    }

    private init(file: URL, descriptor: Int32) {
        self.file = file
        self.descriptor = NIOLockedValueBox(descriptor)
    }

    /// Releases the lock; also done when the lock is deallocated or the process ends.
    package func release() {
        descriptor.withLockedValue { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit {
        release()
    }
}

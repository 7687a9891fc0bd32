"""A Swift crash report's frames and a ``fatalError``'s location anchor a pasted issue
(``frames.SWIFT``, ``frames.SWIFT_FATAL``, ``shape._bare_frame``): Alamofire issues pasting
them were ranked by their words alone, the frames unread (a newcomer: ``Fatal error: ..: file
Alamofire/SessionDelegate.swift, line 302`` and ``UnfairLock.lock() + 20
(Protected.swift:101)``). Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import shape
from coderecalld.query.frames import Frame
from conformance_cases import indexed

WORDY = "".join(f'''\
/// The completion handler is called with the request state: the completion of a
/// request, its state and its lock, the interceptor's completion and the request's state;
/// an authentication interceptor's refresh, the authenticator's refresh, unfair lock write.
func completionState{i}(request: Request, completion: () -> Void) {{
    completion()
}}

''' for i in range(6))

FILES = {
    "Source/Protected.swift": '''\
import Foundation

final class UnfairLock {
    private let unfairLock: os_unfair_lock_t

    func lock() {
        os_unfair_lock_lock(unfairLock)
    }

    func unlock() {
        os_unfair_lock_unlock(unfairLock)
    }
}

final class Protected<T> {
    private let lock = UnfairLock()
    private var value: T

    func write<U>(_ closure: (inout T) throws -> U) rethrows -> U {
        lock.lock()
        defer { lock.unlock() }
        return try closure(&value)
    }
}
''',
    "Source/AuthenticationInterceptor.swift": '''\
public class AuthenticationInterceptor {
    private let mutableState = Protected(MutableState())

    public func adapt(_ urlRequest: URLRequest, for session: Session, completion: @escaping (Result<URLRequest, Error>) -> Void) {
        mutableState.write { state in
            refresh(credential, for: session, insideLock: &state)
        }
    }

    private func refresh(_ credential: Credential, for session: Session, insideLock state: inout MutableState) {
        authenticator.refresh(credential, for: session) { result in
            self.handleRefresh(result)
        }
    }
}
''',
    "Source/Requests.swift": WORDY,
    "Source/Handlers.swift": '''\
open class DownloadDelegate: NSObject {
    /// Calls the completion of a request with its state: the request's completion handler.
    open func complete(_ request: Request, state: State, completion: () -> Void) {
        completion()
    }

    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let response = downloadTask.response else {
            fatalError()
        }
        handle(response, location)
    }
}
''',
}

FATAL = '''\
Crash when the completion of a request is called with its state

The completion handler of my request is called with the request state and the app crashes:

```
Fatal error: file Alamofire/Handlers.swift, line 9
```
'''

ISSUE = '''\
Crash: completion called inside the state lock

The completion of my authenticator's refresh is called synchronously and the request crashes:

```
0   libsystem_platform.dylib   _os_unfair_lock_recursive_abort + 36
1   libsystem_platform.dylib   _os_unfair_lock_lock_slow + 280
2   Alamofire                  0x0000000102b5c1e4 UnfairLock.lock() + 20 (Protected.swift:7)
3   Alamofire                  Protected.write<A>(_:) + 64 (Protected.swift:20)
4   Alamofire                  closure #1 in AuthenticationInterceptor.refresh(_:for:insideLock:) + 120 (AuthenticationInterceptor.swift:12)
5   MyApp                      OAuthAuthenticator.refresh(_:for:completion:) + 412 (OAuthAuthenticator.swift:31)
6   Alamofire                  AuthenticationInterceptor.refresh(_:for:insideLock:) + 600 (AuthenticationInterceptor.swift:11)
```

The completion is invoked while the interceptor still holds its state lock.
'''


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("swift"), FILES) as running:
        yield running


def test_a_crash_reports_frames_are_read_innermost_first() -> None:
    frames = shape.analyze(ISSUE).frames
    assert frames == (
        Frame("Protected.swift", "UnfairLock.lock", 7),
        Frame("Protected.swift", "Protected.write", 20),
        Frame("AuthenticationInterceptor.swift", "AuthenticationInterceptor.refresh", 12),
        Frame("OAuthAuthenticator.swift", "OAuthAuthenticator.refresh", 31),
        Frame("AuthenticationInterceptor.swift", "AuthenticationInterceptor.refresh", 11),
    )
    fatal = shape.analyze("Crash on download\n\nFatal error: URLSessionDownloadTask finished downloading with "
                          "no response.: file Alamofire/SessionDelegate.swift, line 302\n\nwith a file URL")
    assert fatal.frames == (Frame("SessionDelegate.swift", "", 302),)


def test_a_crash_report_anchors_the_files_it_ran_through(daemon: Daemon) -> None:
    located = daemon.service.locate(ISSUE, limit=3, repo="fx").files
    # the wordy file's words lose to the frames' files (the innermost frames' lock is the
    # library's own; the project's frame that called back is where the issue is)
    assert [f.path for f in located[:2]] == ["Source/AuthenticationInterceptor.swift", "Source/Protected.swift"]
    assert located[0].functions[0].qualified_name == "AuthenticationInterceptor.refresh"
    assert {"UnfairLock.lock", "Protected.write"} <= {fn.qualified_name for fn in located[1].functions}


def test_a_fatal_errors_location_names_its_file(daemon: Daemon) -> None:
    """The words (completion, request, state) are ``complete``'s; where it stopped is the
    function holding line 9 (before: ``complete`` listed first)."""
    located = daemon.service.locate(FATAL, limit=3, repo="fx").files
    assert located[0].path == "Source/Handlers.swift"
    assert located[0].functions[0].qualified_name == "DownloadDelegate.urlSession"

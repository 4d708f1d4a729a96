import Synchronization
import VoiceLoop

/// What a loop or a typed session wrote to its transcript, kept to be read back.
package final class Transcript: Sendable {
    private let text = Mutex("")

    package init() {}

    /// Where to write it: a loop's or a session's transcript.
    package var sink: TextSink { TextSink { line in self.text.withLock { $0 += line } } }
    /// What has been written so far.
    package var written: String { text.withLock { $0 } }
}

import Testing
import VoiceIntents

@Suite("Timers")
struct TimerTests {
    /// Every change is told to those who follow the timers, in order, and a paused timer keeps
    /// the seconds it had left.
    @Test func startPauseResumeAndCancelAreEachAnEvent() async throws {
        let timers = VoiceTimers()
        var events = timers.events().makeAsyncIterator()
        let timer = timers.start(minutes: 5)
        #expect(timer.totalSeconds == 300 && timer.secondsLeft == 300 && timer.isActive)
        let paused = try #require(timers.setActive(timer.id, false))
        #expect(!paused.isActive && (299...300).contains(paused.secondsLeft))
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(timers.timers.first?.secondsLeft == paused.secondsLeft, "a paused timer does not run")
        #expect(timers.setActive(timer.id, true)?.isActive == true)
        #expect(timers.cancel(timer.id)?.id == timer.id)
        #expect(timers.cancel(timer.id) == nil, "cancelled twice")
        #expect(timers.timers.isEmpty)
        var kinds: [String] = []
        for _ in 0..<4 {
            switch await events.next() {
            case .started(let started): kinds.append("started \(started.totalSeconds)")
            case .updated(let updated): kinds.append(updated.isActive ? "resumed" : "paused")
            case .cancelled: kinds.append("cancelled")
            case .finished: kinds.append("finished")
            case nil: kinds.append("end")
            }
        }
        #expect(kinds == ["started 300", "paused", "resumed", "cancelled"])
    }

    /// A timer runs out on its own when its time is up, not before, and is gone then.
    @Test func aTimerRunsOutOnItsOwn() async throws {
        let timers = VoiceTimers()
        let events = timers.events()
        let started = ContinuousClock.now
        let timer = timers.start(seconds: 1)
        for await event in events {
            guard case .finished(let finished) = event else { continue }
            #expect(finished.id == timer.id && finished.secondsLeft == 0)
            break
        }
        #expect(started.duration(to: .now) >= .seconds(1))
        #expect(timers.timers.isEmpty)
    }

    /// A timer belongs to the device whose command started it: each device sees its own.
    @Test func eachDeviceHasItsOwnTimers() {
        let timers = VoiceTimers()
        let kitchen = VoiceTimers.$device.withValue("kitchen") { timers.start(minutes: 10, name: "pasta") }
        let mine = timers.start(hours: 1)
        #expect(kitchen.device == "kitchen" && mine.device == nil)
        #expect(VoiceTimers.$device.withValue("kitchen") { timers.timersHere.map(\.id) } == [kitchen.id])
        #expect(timers.timersHere.map(\.id) == [mine.id])
        #expect(timers.timers.count == 2)
        for timer in timers.timers { timers.cancel(timer.id) }
    }

    /// Lengths are said as people say them.
    @Test func lengthsAndNamesAreSaid() {
        let timers = VoiceTimers()
        let long = timers.start(hours: 1, minutes: 30)
        let pasta = timers.start(minutes: 8, name: "pasta")
        #expect(long.spokenLength == "1 hour and 30 minutes")
        #expect(long.spokenName == "the 1 hour 30 minute timer")
        #expect(pasta.spokenName == "the pasta timer")
        #expect(VoiceTimers.Timer.spoken(seconds: 250) == "4 minutes and 10 seconds")
        #expect(VoiceTimers.Timer.spoken(seconds: 0) == "0 seconds")
        for timer in timers.timers { timers.cancel(timer.id) }
    }
}

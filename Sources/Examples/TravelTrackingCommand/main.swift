import TravelTracking
import VoiceIntentsCLI

await TravelTrackingApp.main()

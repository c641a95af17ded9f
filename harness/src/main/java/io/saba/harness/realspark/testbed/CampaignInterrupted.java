package io.saba.harness.realspark.testbed;

/** The campaign is being torn down (^C): whatever runs now must not be recorded. */
public final class CampaignInterrupted extends RuntimeException {
    CampaignInterrupted() {
        super("the campaign was interrupted; its testbed is being taken down");
    }
}

package io.saba.harness.realspark.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The controller's CPU counts the processes it runs and waits for, as the Linux backend's tc reads are. */
class ControllerProcessTest {
    @Test
    void theCpuOfAChildThisJvmWaitedForIsCountedOnceItHasEnded() throws Exception {
        long self = ProcessHandle.current().pid();
        double before = ControllerProcess.reapedChildrenCpuSeconds(self);
        Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done").start();
        assertTrue(busy.waitFor(60, TimeUnit.SECONDS));
        double after = ControllerProcess.reapedChildrenCpuSeconds(self);
        assertTrue(after - before >= 0.05, "a shell counting to 400,000 used some CPU: " + before + " -> " + after);
    }

    @Test
    void aProcessThatIsGoneCountsNothing() {
        assertEquals(0, ControllerProcess.reapedChildrenCpuSeconds(Long.MAX_VALUE));
    }
}

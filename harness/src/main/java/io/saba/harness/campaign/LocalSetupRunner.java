package io.saba.harness.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Setups on a fixed pool of worker threads in this JVM. */
public final class LocalSetupRunner implements SetupRunner {
    private final int threads;

    public LocalSetupRunner(int threads) {
        this.threads = Math.max(1, threads);
    }

    @Override
    public String describe() {
        return threads + " threads";
    }

    @Override
    public void runAll(TestbedSetups setups, List<Integer> pending, Consumer<List<JobOutcome>> done) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i : pending) {
                futures.add(pool.submit(() -> done.accept(setups.run(i))));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("campaign interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("campaign failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}

package dev.kubejobs.testkit.operator;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.ResourceType;
import java.time.Duration;

/**
 * A fake operator's fixed settings. Immutable apart from {@code unparseableStatus}, which is never
 * changed after construction and only handed out as copies.
 */
record Settings(
    FakeSparkOperator.Flavor flavor,
    ResourceType type,
    String version,
    SparkAppPath defaultPath,
    boolean trim,
    String newerState,
    JsonObject unparseableStatus,
    boolean sidecar,
    Duration stepDuration) {}

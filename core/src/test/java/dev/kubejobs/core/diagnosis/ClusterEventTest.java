/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.core.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.kubejobs.testkit.fixtures.DriverPodBuilder;
import dev.kubejobs.testkit.fixtures.EventBuilder;
import dev.kubejobs.testkit.fixtures.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Events read as the cluster serves them. kube-scheduler and the kubelet record through
 * events.k8s.io/v1 (kubernetes v1.34 {@code pkg/scheduler/scheduler.go} uses {@code
 * k8s.io/client-go/tools/events}); read back through core/v1 such an event has {@code
 * firstTimestamp}/{@code lastTimestamp} null, its time in {@code eventTime}, repeats in {@code
 * series} and an empty {@code source} (kubernetes {@code pkg/apis/events/v1/conversion.go}: {@code
 * DeprecatedFirstTimestamp}→{@code FirstTimestamp}, {@code DeprecatedCount}→{@code Count}, {@code
 * DeprecatedSource}→{@code Source}).
 */
class ClusterEventTest {

  private static final JsonObject POD = DriverPodBuilder.kubeflow("app").pending().build();
  private static final Instant FIRST = Fixtures.T0.plusSeconds(5);
  private static final Instant LAST = Fixtures.T0.plusSeconds(305);

  @Test
  void coreV1EventReadsCountAndBothTimes() {
    ClusterEvent e =
        ClusterEvent.of(
            EventBuilder.about(POD)
                .warning("FailedMount", "MountVolume.SetUp failed")
                .seen(12, FIRST, LAST)
                .build());

    assertThat(e.kind()).isEqualTo("Pod");
    assertThat(e.name()).isEqualTo("app-driver");
    assertThat(e.type()).isEqualTo("Warning");
    assertThat(e.count()).isEqualTo(12);
    assertThat(e.firstSeen()).contains(FIRST);
    assertThat(e.lastSeen()).contains(LAST);
    assertThat(e.reporter()).isEqualTo("kubelet");
  }

  @Test
  void eventsV1EventReadThroughCoreV1TakesTimeFromEventTimeAndRepeatsFromSeries() {
    ClusterEvent e =
        ClusterEvent.of(
            EventBuilder.about(POD)
                .warning("FailedScheduling", "0/3 nodes are available: 3 Insufficient cpu.")
                .reportedBy("default-scheduler")
                .seen(4, FIRST, LAST)
                .buildSeries());

    assertThat(e.count()).isEqualTo(4);
    assertThat(e.firstSeen()).contains(FIRST);
    assertThat(e.lastSeen()).contains(LAST);
    assertThat(e.reporter()).isEqualTo("default-scheduler");
  }

  @Test
  void singleEventsV1EventWithoutSeriesCountsOnce() {
    ClusterEvent e =
        ClusterEvent.of(
            EventBuilder.about(POD)
                .warning("FailedScheduling", "x")
                .seen(1, FIRST, FIRST)
                .buildSeries());

    assertThat(e.count()).isEqualTo(1);
    assertThat(e.lastSeen()).contains(FIRST);
  }

  @Test
  void eventsV1NativeShapeReadsRegardingAndNote() {
    JsonObject native1 = new JsonObject();
    JsonObject regarding = new JsonObject();
    regarding.addProperty("kind", "Pod");
    regarding.addProperty("name", "app-driver");
    regarding.addProperty("namespace", "jobs");
    native1.add("regarding", regarding);
    native1.addProperty("note", "Back-off pulling image \"x\"");
    native1.addProperty("reason", "BackOff");
    native1.addProperty("type", "Normal");
    native1.addProperty("deprecatedCount", 7);
    native1.addProperty("eventTime", "2026-01-01T00:00:05.123456Z");

    ClusterEvent e = ClusterEvent.of(native1);

    assertThat(e.isAbout("Pod", "app-driver", null)).isTrue();
    assertThat(e.message()).isEqualTo("Back-off pulling image \"x\"");
    assertThat(e.count()).isEqualTo(7);
    assertThat(e.firstSeen()).contains(Instant.parse("2026-01-01T00:00:05.123456Z"));
  }

  @Test
  void eventAboutAnEarlierPodOfTheSameNameIsNotAboutThisOne() {
    ClusterEvent e =
        ClusterEvent.of(EventBuilder.about(POD).warning("FailedScheduling", "x").build());
    String uid = POD.getAsJsonObject("metadata").get("uid").getAsString();

    assertThat(e.isAbout("Pod", "app-driver", uid)).isTrue();
    assertThat(e.isAbout("Pod", "app-driver", "another-uid")).isFalse();
    assertThat(e.isAbout("SparkApplication", "app-driver", null)).isFalse();
  }
}

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
package dev.kubejobs.core.internal.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.resilience.ResiliencePolicy;
import dev.kubejobs.core.testing.Fixture;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.testkit.FakeKubernetesExtension;
import dev.kubejobs.testkit.ResourceType;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every request of the gateway, JSON, watch and log alike, goes out through the one transport: once
 * through the resilience policy, with the retry flag of its verb.
 */
class OneSendPathTest {
  @RegisterExtension
  static final FakeKubernetesExtension KUBE =
      FakeKubernetesExtension.builder().resource(TestJobKind.TYPE).build();

  /** What the policy was asked to run: the operation and whether it may be retried. */
  private record Sent(String op, boolean retryable) {}

  private final List<Sent> sent = new CopyOnWriteArrayList<>();
  private final ResiliencePolicy recording =
      new ResiliencePolicy() {
        @Override
        public <T> T execute(String operation, boolean retryable, Supplier<T> attempt) {
          sent.add(new Sent(operation, retryable));
          return attempt.get();
        }
      };

  @Test
  void jsonLogAndWatchRequestsEachRunOnceUnderThePolicyWithTheirRetryFlag() {
    KUBE.server()
        .store()
        .create(ResourceType.POD, "etl", Fixture.driverPod("d-1", "kj-1", "Running"));
    KUBE.server().store().setPodLog("etl", "d-1", "driver", "one\n");
    KubeGateway gateway = KubeGateway.create(KUBE.client(), Duration.ofSeconds(5), recording);

    gateway.create(null, TestJobKind.KIND, "etl", Fixture.testJob("kj-1", "a", "job-1", null));
    gateway.get(null, TestJobKind.KIND, "etl", "kj-1");
    gateway.readPodLog(null, "etl", "d-1", "driver", null, null, InputStream::readAllBytes);
    assertThatThrownBy(
            () ->
                gateway.watch(
                    TestJobKind.KIND,
                    "etl",
                    null,
                    "",
                    Duration.ofMinutes(5),
                    true,
                    new WatchHandler() {
                      @Override
                      public void starting(WatchCall call) {
                        call.cancel();
                      }

                      @Override
                      public void onEvent(WatchEvent event) {}
                    }))
        .isInstanceOf(ApiUnavailableException.class)
        .hasMessageContaining("was canceled before the server answered");

    assertThat(sent)
        .containsExactly(
            new Sent("create testjobs.kubejobs.dev etl/kj-1", false),
            new Sent("get testjobs.kubejobs.dev etl/kj-1", true),
            new Sent("read log of pod etl/d-1", true),
            new Sent("watch testjobs.kubejobs.dev in namespace etl", false));
  }

  @Test
  void aRequestWhose404IsEmptyCannotBeReadByABodyReaderOrOpened() {
    KubeTransport transport =
        new KubeTransport(
            KUBE.client(), KUBE.client().getHttpClient(), recording, Clock.systemUTC());
    KubeRequest absentOn404 =
        KubeRequest.builder("get a", "GET", "/api/v1/namespaces/etl/pods/a")
            .onNotFound(KubeRequest.OnStatus.ABSENT)
            .build();

    assertThatThrownBy(() -> transport.send(absentOn404, response -> "read"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not treat a 404 as absent");
    assertThatThrownBy(() -> transport.open(absentOn404))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(sent).isEmpty();
  }
}

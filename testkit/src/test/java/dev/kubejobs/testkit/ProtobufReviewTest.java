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
package dev.kubejobs.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.util.HexFormat;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code SelfSubjectAccessReview} posted as protobuf, as kubectl 1.32/1.33 posts it for {@code
 * kubectl auth can-i}: the body below is the one kubectl sent for {@code auth can-i create pods -n
 * jobs} (from its {@code -v=8} trace), the {@code k8s\0} envelope of apimachinery {@code
 * pkg/runtime/serializer/protobuf/protobuf.go} around k8s.io/api {@code
 * authorization/v1/generated.proto} fields. A real server decodes it; kubectl accepts JSON back.
 */
class ProtobufReviewTest {

  @RegisterExtension
  static final FakeKubernetesExtension kube = FakeKubernetesExtension.builder().build();

  static final String KUBECTL_CAN_I_CREATE_PODS =
      "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f763112"
          + "1753656c665375626a656374416363657373526576696577123c0a100a001200"
          + "1a0022002a00320038004200121e0a1c0a046a6f627312066372656174651a00"
          + "22002a04706f647332003a001a08080012001a0020001a002200";

  private static Response post(byte[] body) throws IOException {
    Request request =
        new Request.Builder()
            .url(kube.server().url() + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .header("Accept", "application/vnd.kubernetes.protobuf,application/json")
            .post(RequestBody.create(body, MediaType.get("application/vnd.kubernetes.protobuf")))
            .build();
    return new OkHttpClient().newCall(request).execute();
  }

  @Test
  void kubectlsProtobufReviewIsDecodedAndAnsweredAsJson() throws IOException {
    kube.server().rbac().deny("create", "", "pods");

    try (Response r = post(HexFormat.of().parseHex(KUBECTL_CAN_I_CREATE_PODS))) {
      assertThat(r.code()).isEqualTo(201);
      assertThat(r.header("Content-Type")).startsWith("application/json");
      JsonObject review = JsonParser.parseString(r.body().string()).getAsJsonObject();
      assertThat(review.getAsJsonObject("spec").getAsJsonObject("resourceAttributes"))
          .isEqualTo(Kube.json("{'namespace':'jobs','verb':'create','resource':'pods'}"));
      assertThat(review.getAsJsonObject("status").get("allowed").getAsBoolean()).isFalse();
    }
  }

  @Test
  void aBodyWithoutTheProtobufPrefixIsABadRequest() throws IOException {
    try (Response r = post("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
      assertThat(r.code()).isEqualTo(400);
    }
  }
}

import { createMachine } from 'xstate';
export default createMachine({
  "id": "openApiCall",
  "initial": "starting",
  "on": {
    "CANCEL": {
      "target": ".closed",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
  "states": {
    "starting": {
      "meta": {
        "operation": "openapi/call"
      },
      "always": [
        {
          "guard": {
            "type": "resolvesToken"
          },
          "target": "credentials"
        },
        {
          "target": "requesting"
        }
      ]
    },
    "credentials": {
      "meta": {
        "operation": "openapi/call"
      },
      "invoke": {
        "id": "resolveCredentials",
        "src": "resolveCredentials",
        "onDone": {
          "target": "requesting",
          "actions": {
            "type": "assignToken"
          }
        },
        "onError": {
          "target": "#openApiCall.closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "CALL_DEADLINE": {
          "target": "#openApiCall.closed",
          "actions": {
            "type": "failTimeout"
          }
        }
      }
    },
    "requesting": {
      "meta": {
        "operation": "openapi/call"
      },
      "invoke": {
        "id": "sendRequest",
        "src": "sendRequest",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "#openApiCall.closed",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "#openApiCall.closed",
            "actions": {
              "type": "failHttpStatus"
            }
          },
          {
            "guard": {
              "type": "isMalformed"
            },
            "target": "#openApiCall.closed",
            "actions": {
              "type": "failProtocol"
            }
          },
          {
            "target": "#openApiCall.closed",
            "actions": {
              "type": "succeed"
            }
          }
        ],
        "onError": {
          "target": "#openApiCall.closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "on": {
        "BYTES_READ": {
          "actions": {
            "type": "recordBytesRead"
          }
        }
      },
      "after": {
        "CALL_DEADLINE": {
          "target": "#openApiCall.closed",
          "actions": {
            "type": "failTimeout"
          }
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});

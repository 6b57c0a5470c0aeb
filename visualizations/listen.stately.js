import { createMachine } from 'xstate';
export default createMachine({
  "id": "listen",
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
      "always": [
        {
          "guard": {
            "type": "resolvesToken"
          },
          "target": "credentials"
        },
        {
          "target": "streaming"
        }
      ]
    },
    "credentials": {
      "invoke": {
        "id": "resolveCredentials",
        "src": "resolveCredentials",
        "onDone": {
          "target": "streaming",
          "actions": {
            "type": "recordToken"
          }
        },
        "onError": {
          "target": "closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "FIRST_EVENT_DEADLINE": [
          {
            "guard": {
              "type": "hasFailuresLeft"
            },
            "target": "#listen.reconnecting",
            "actions": "recordFailure"
          },
          {
            "target": "#listen.closed",
            "actions": {
              "type": "failTimeout"
            }
          }
        ]
      }
    },
    "streaming": {
      "invoke": {
        "id": "stream",
        "src": "listenStream"
      },
      "initial": "connecting",
      "on": {
        "STREAM_ENDED": {
          "target": "reconnecting"
        },
        "STREAM_FAILED": [
          {
            "guard": {
              "type": "isUnoffered"
            },
            "target": "closed",
            "actions": "succeed"
          },
          {
            "guard": {
              "type": "hasFailuresLeft"
            },
            "target": "reconnecting",
            "actions": "recordFailure"
          },
          {
            "target": "closed",
            "actions": {
              "type": "failWithError"
            }
          }
        ]
      },
      "states": {
        "connecting": {
          "on": {
            "STREAM_ENDED": [
              {
                "guard": {
                  "type": "hasFailuresLeft"
                },
                "target": "#listen.reconnecting",
                "actions": "recordFailure"
              },
              {
                "target": "#listen.closed",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended subscriptions/listen before acknowledging it"
                  }
                }
              }
            ],
            "OPENED": [
              {
                "guard": {
                  "type": "isReopened"
                },
                "target": "listening",
                "actions": [
                  "recordOpened",
                  "announceChange"
                ]
              },
              {
                "target": "listening",
                "actions": "recordOpened"
              }
            ]
          },
          "after": {
            "FIRST_EVENT_DEADLINE": [
              {
                "guard": {
                  "type": "hasFailuresLeft"
                },
                "target": "#listen.reconnecting",
                "actions": "recordFailure"
              },
              {
                "target": "#listen.closed",
                "actions": {
                  "type": "failTimeout"
                }
              }
            ]
          }
        },
        "listening": {
          "initial": "quiet",
          "states": {
            "quiet": {
              "on": {
                "CHANGED": "settling"
              }
            },
            "settling": {
              "after": {
                "DEBOUNCE": {
                  "target": "quiet",
                  "actions": "announceChange"
                }
              }
            }
          }
        }
      }
    },
    "reconnecting": {
      "after": {
        "RECONNECT_BACKOFF": "starting"
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});

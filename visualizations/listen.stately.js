import { createMachine } from 'xstate';
export default createMachine({
  "id": "listen",
  "initial": "starting",
  "on": {
    "CANCEL": {
      "target": ".closing",
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
          "target": "closing",
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
            "target": "#listen.closing",
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
            "target": "closing",
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
            "target": "closing",
            "actions": {
              "type": "failWithError"
            }
          }
        ],
        "SESSION_OPENED": {
          "actions": {
            "type": "recordSession"
          }
        }
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
                "target": "#listen.closing",
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
                "target": "#listen.closing",
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
      "initial": "leaving",
      "states": {
        "leaving": {
          "always": [
            {
              "guard": {
                "type": "holdsSession"
              },
              "target": "endingSession"
            },
            {
              "target": "waiting"
            }
          ]
        },
        "endingSession": {
          "invoke": {
            "id": "deleteSession",
            "src": "deleteSession",
            "onDone": {
              "target": "waiting"
            },
            "onError": {
              "target": "waiting"
            }
          },
          "after": {
            "SESSION_END_DEADLINE": {
              "target": "waiting"
            }
          },
          "exit": "forgetSession"
        },
        "waiting": {
          "after": {
            "RECONNECT_BACKOFF": "#listen.starting"
          }
        }
      }
    },
    "closing": {
      "always": [
        {
          "guard": {
            "type": "holdsSession"
          },
          "target": "endingSession"
        },
        {
          "target": "closed"
        }
      ]
    },
    "endingSession": {
      "invoke": {
        "id": "deleteSession",
        "src": "deleteSession",
        "onDone": {
          "target": "closed"
        },
        "onError": {
          "target": "closed"
        }
      },
      "after": {
        "SESSION_END_DEADLINE": {
          "target": "closed"
        }
      },
      "exit": "forgetSession",
      "on": {
        "CANCEL": {
          "target": "closed"
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});

import { createMachine } from 'xstate';
export default createMachine({
  "id": "mcpOperation",
  "initial": "starting",
  "on": {
    "CANCEL": {
      "target": ".closing",
      "actions": [
        {
          "type": "failCancelled"
        },
        {
          "type": "abandonRequest",
          "params": {
            "cause": "cancelled"
          }
        }
      ]
    }
  },
  "states": {
    "starting": {
      "meta": {
        "operation": "initialize"
      },
      "always": [
        {
          "guard": {
            "type": "resolvesToken"
          },
          "target": "credentials"
        },
        {
          "guard": {
            "type": "resumesTask"
          },
          "target": "task",
          "actions": [
            "switchToStateless",
            "beginRequest",
            "assignResumedTask"
          ]
        },
        {
          "guard": {
            "type": "startsStateless"
          },
          "target": "stateless",
          "actions": [
            "switchToStateless",
            "beginRequest"
          ]
        },
        {
          "guard": {
            "type": "isSseOnly"
          },
          "target": "sse",
          "actions": [
            "switchToSse",
            {
              "type": "beginHandshakeStep",
              "params": {
                "operation": "endpoint"
              }
            }
          ]
        },
        {
          "target": "session",
          "actions": []
        }
      ]
    },
    "credentials": {
      "meta": {
        "operation": "initialize"
      },
      "invoke": {
        "id": "resolveCredentials",
        "src": "resolveCredentials",
        "onDone": [
          {
            "guard": {
              "type": "resumesTask"
            },
            "target": "task",
            "actions": [
              {
                "type": "assignToken"
              },
              "switchToStateless",
              "beginRequest",
              "assignResumedTask"
            ]
          },
          {
            "guard": {
              "type": "startsStateless"
            },
            "target": "stateless",
            "actions": [
              {
                "type": "assignToken"
              },
              "switchToStateless",
              "beginRequest"
            ]
          },
          {
            "guard": {
              "type": "isSseOnly"
            },
            "target": "sse",
            "actions": [
              {
                "type": "assignToken"
              },
              "switchToSse",
              {
                "type": "beginHandshakeStep",
                "params": {
                  "operation": "endpoint"
                }
              }
            ]
          },
          {
            "target": "session",
            "actions": [
              {
                "type": "assignToken"
              }
            ]
          }
        ],
        "onError": {
          "target": "#mcpOperation.closing",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "HANDSHAKE_DEADLINE": {
          "target": "#mcpOperation.closing",
          "actions": {
            "type": "failTimeout"
          }
        }
      }
    },
    "session": {
      "initial": "initializing",
      "on": {
        "BYTES_READ": [
          {
            "guard": {
              "type": "exceedsReadBudget"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failTooLarge"
            }
          },
          {
            "actions": {
              "type": "recordBytesRead"
            }
          }
        ]
      },
      "states": {
        "initializing": {
          "meta": {
            "operation": "initialize"
          },
          "invoke": {
            "id": "postInitialize",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "offersStatelessRevision"
                },
                "target": "#mcpOperation.stateless",
                "actions": [
                  "markSwitched",
                  "switchToStateless",
                  "beginRequest"
                ]
              },
              {
                "guard": {
                  "type": "isUnsupportedVersion"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnsupportedVersion"
                }
              },
              {
                "guard": {
                  "type": "isFallbackStatus"
                },
                "target": "#mcpOperation.sse",
                "actions": [
                  {
                    "type": "recordFallback"
                  },
                  "switchToSse",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "endpoint"
                    }
                  }
                ]
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "isResponse"
                },
                "target": "notifying",
                "actions": [
                  {
                    "type": "assignInitialized"
                  },
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "notifications/initialized"
                    }
                  }
                ]
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended MCP initialize without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "reinitializing": {
          "meta": {
            "operation": "initialize"
          },
          "invoke": {
            "id": "postReinitialize",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "isResponse"
                },
                "target": "notifying",
                "actions": [
                  {
                    "type": "assignInitialized"
                  },
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "notifications/initialized"
                    }
                  }
                ]
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended MCP initialize without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "notifying": {
          "meta": {
            "operation": "notifications/initialized"
          },
          "invoke": {
            "id": "postInitialized",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "relaysToCaller"
                },
                "target": "openingCallerStream",
                "actions": {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "standalone-stream"
                  }
                }
              },
              {
                "guard": {
                  "type": "listensForSessionProgress"
                },
                "target": "openingCallerStream",
                "actions": {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "standalone-stream"
                  }
                }
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ],
            "onError": [
              {
                "guard": {
                  "type": "isSizeFailure"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              },
              {
                "guard": {
                  "type": "isUrlRefusal"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              },
              {
                "guard": {
                  "type": "relaysToCaller"
                },
                "target": "openingCallerStream",
                "actions": {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "standalone-stream"
                  }
                }
              },
              {
                "guard": {
                  "type": "listensForSessionProgress"
                },
                "target": "openingCallerStream",
                "actions": {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "standalone-stream"
                  }
                }
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "openingCallerStream": {
          "meta": {
            "operation": "standalone-stream"
          },
          "entry": "openCallerStream",
          "on": {
            "CALLER_STREAM_OPEN": {
              "target": "requesting",
              "actions": "beginRequest"
            },
            "CALLER_STREAM_CLOSED": {
              "target": "requesting",
              "actions": "beginRequest"
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": [
              {
                "guard": {
                  "type": "relaysToCaller"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failTimeout"
                }
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ]
          }
        },
        "requesting": {
          "invoke": {
            "id": "postRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "isLostSession"
                },
                "target": "reinitializing",
                "actions": [
                  "closeCallerStream",
                  "reopenSession",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "initialize"
                    }
                  }
                ]
              },
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "hasNextPage"
                },
                "target": "requesting",
                "reenter": true,
                "actions": {
                  "type": "collectPage"
                }
              },
              {
                "guard": {
                  "type": "hasCursorAtPageLimit"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "did not end its MCP tools/list"
                  }
                }
              },
              {
                "guard": {
                  "type": "createsTask"
                },
                "target": "#mcpOperation.task",
                "actions": {
                  "type": "assignTask"
                }
              },
              {
                "guard": {
                  "type": "isResponse"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "succeed"
                }
              },
              {
                "guard": {
                  "type": "canResume"
                },
                "target": "awaitingResume",
                "actions": {
                  "type": "assignInterruption"
                }
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended the MCP exchange without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "initial": "waiting",
          "states": {
            "waiting": {
              "after": {
                "REQUEST_DEADLINE": {
                  "target": "#mcpOperation.closing",
                  "actions": [
                    {
                      "type": "failTimeout"
                    },
                    {
                      "type": "abandonRequest",
                      "params": {
                        "cause": "timeout"
                      }
                    }
                  ]
                }
              },
              "on": {
                "PROGRESS": [
                  {
                    "guard": {
                      "type": "extendsDeadline"
                    },
                    "target": "waiting",
                    "reenter": true,
                    "actions": [
                      {
                        "type": "relayProgress"
                      },
                      "extendDeadline"
                    ]
                  },
                  {
                    "actions": {
                      "type": "relayProgress"
                    }
                  }
                ]
              }
            }
          }
        },
        "awaitingResume": {
          "after": {
            "RESUME_DELAY": {
              "target": "resuming"
            },
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": [
                {
                  "type": "failTimeout"
                },
                {
                  "type": "abandonRequest",
                  "params": {
                    "cause": "timeout"
                  }
                }
              ]
            }
          }
        },
        "resuming": {
          "invoke": {
            "id": "resumeRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "hasNextPage"
                },
                "target": "requesting",
                "reenter": true,
                "actions": {
                  "type": "collectPage"
                }
              },
              {
                "guard": {
                  "type": "hasCursorAtPageLimit"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "did not end its MCP tools/list"
                  }
                }
              },
              {
                "guard": {
                  "type": "createsTask"
                },
                "target": "#mcpOperation.task",
                "actions": {
                  "type": "assignTask"
                }
              },
              {
                "guard": {
                  "type": "isResponse"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "succeed"
                }
              },
              {
                "guard": {
                  "type": "canResume"
                },
                "target": "awaitingResume",
                "actions": {
                  "type": "assignInterruption"
                }
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended the MCP exchange without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "initial": "waiting",
          "states": {
            "waiting": {
              "after": {
                "REQUEST_DEADLINE": {
                  "target": "#mcpOperation.closing",
                  "actions": [
                    {
                      "type": "failTimeout"
                    },
                    {
                      "type": "abandonRequest",
                      "params": {
                        "cause": "timeout"
                      }
                    }
                  ]
                }
              },
              "on": {
                "PROGRESS": [
                  {
                    "guard": {
                      "type": "extendsDeadline"
                    },
                    "target": "waiting",
                    "reenter": true,
                    "actions": [
                      {
                        "type": "relayProgress"
                      },
                      "extendDeadline"
                    ]
                  },
                  {
                    "actions": {
                      "type": "relayProgress"
                    }
                  }
                ]
              }
            }
          }
        }
      }
    },
    "sse": {
      "initial": "connecting",
      "invoke": {
        "id": "legacyStream",
        "src": "legacyStream"
      },
      "on": {
        "BYTES_READ": [
          {
            "guard": {
              "type": "exceedsReadBudget"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failTooLarge"
            }
          },
          {
            "actions": {
              "type": "recordBytesRead"
            }
          }
        ],
        "SSE_ENDPOINT": [
          {
            "guard": {
              "type": "exceedsReadBudget"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failTooLarge"
            }
          },
          {
            "actions": {
              "type": "recordBytesRead"
            }
          }
        ],
        "SSE_MESSAGE": [
          {
            "guard": {
              "type": "exceedsReadBudget"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failTooLarge"
            }
          },
          {
            "actions": {
              "type": "recordBytesRead"
            }
          }
        ],
        "STREAM_REJECTED": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failHttpStatus"
            }
          }
        ],
        "STREAM_ENDED": {
          "target": "#mcpOperation.closing",
          "actions": {
            "type": "failProtocol",
            "params": {
              "violation": "ended the MCP SSE stream without a response"
            }
          }
        },
        "STREAM_FAILED": {
          "target": "#mcpOperation.closing",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "states": {
        "connecting": {
          "meta": {
            "operation": "endpoint"
          },
          "on": {
            "SSE_ENDPOINT": [
              {
                "guard": {
                  "type": "exceedsReadBudget"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failTooLarge"
                }
              },
              {
                "target": "endpointCheck",
                "actions": [
                  {
                    "type": "recordBytesRead"
                  },
                  {
                    "type": "assignEndpoint"
                  }
                ]
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "endpointCheck": {
          "always": [
            {
              "guard": {
                "type": "isFencedEndpoint"
              },
              "target": "initializing",
              "actions": {
                "type": "beginHandshakeStep",
                "params": {
                  "operation": "initialize"
                }
              }
            },
            {
              "target": "#mcpOperation.closing",
              "actions": "failEndpointOutsideFence"
            }
          ]
        },
        "initializing": {
          "meta": {
            "operation": "initialize"
          },
          "invoke": {
            "id": "postLegacyInitialize",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "holdsLegacyAnswer"
                },
                "target": "initializeCheck"
              },
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "actions": "acceptPost"
              }
            ],
            "onError": [
              {
                "guard": {
                  "type": "holdsLegacyAnswer"
                },
                "target": "initializeCheck"
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              }
            ]
          },
          "on": {
            "SSE_MESSAGE": [
              {
                "guard": {
                  "type": "exceedsReadBudget"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failTooLarge"
                }
              },
              {
                "guard": {
                  "type": "isAcceptedResponse"
                },
                "target": "initializeCheck",
                "actions": [
                  {
                    "type": "recordBytesRead"
                  },
                  {
                    "type": "assignLegacyAnswer"
                  }
                ]
              },
              {
                "guard": {
                  "type": "isEarlyResponse"
                },
                "actions": [
                  {
                    "type": "recordBytesRead"
                  },
                  {
                    "type": "assignLegacyAnswer"
                  }
                ]
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "initializeCheck": {
          "always": [
            {
              "guard": {
                "type": "isAnswered"
              },
              "target": "notifying",
              "actions": [
                {
                  "type": "assignInitialized"
                },
                {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "notifications/initialized"
                  }
                }
              ]
            },
            {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          ]
        },
        "notifying": {
          "meta": {
            "operation": "notifications/initialized"
          },
          "invoke": {
            "id": "postLegacyInitialized",
            "src": "exchange",
            "onDone": [
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ],
            "onError": [
              {
                "guard": {
                  "type": "isSizeFailure"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              },
              {
                "guard": {
                  "type": "isUrlRefusal"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failTimeout"
              }
            }
          }
        },
        "requesting": {
          "invoke": {
            "id": "postLegacyRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "holdsLegacyAnswer"
                },
                "target": "responseCheck"
              },
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "actions": "acceptPost"
              }
            ],
            "onError": [
              {
                "guard": {
                  "type": "holdsLegacyAnswer"
                },
                "target": "responseCheck"
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failWithError"
                }
              }
            ]
          },
          "on": {
            "SSE_MESSAGE": [
              {
                "guard": {
                  "type": "exceedsReadBudget"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failTooLarge"
                }
              },
              {
                "guard": {
                  "type": "isAcceptedResponse"
                },
                "target": "responseCheck",
                "actions": [
                  {
                    "type": "recordBytesRead"
                  },
                  {
                    "type": "assignLegacyAnswer"
                  }
                ]
              },
              {
                "guard": {
                  "type": "isEarlyResponse"
                },
                "actions": [
                  {
                    "type": "recordBytesRead"
                  },
                  {
                    "type": "assignLegacyAnswer"
                  }
                ]
              }
            ]
          },
          "initial": "waiting",
          "states": {
            "waiting": {
              "after": {
                "REQUEST_DEADLINE": [
                  {
                    "guard": {
                      "type": "holdsLegacyAnswer"
                    },
                    "target": "#mcpOperation.sse.responseCheck"
                  },
                  {
                    "target": "#mcpOperation.closing",
                    "actions": [
                      {
                        "type": "failTimeout"
                      },
                      {
                        "type": "abandonRequest",
                        "params": {
                          "cause": "timeout"
                        }
                      }
                    ]
                  }
                ]
              },
              "on": {
                "SSE_MESSAGE": [
                  {
                    "guard": {
                      "type": "exceedsReadBudget"
                    },
                    "target": "#mcpOperation.closing",
                    "actions": {
                      "type": "failTooLarge"
                    }
                  },
                  {
                    "guard": {
                      "type": "isDeadlineExtendingNotice"
                    },
                    "target": "waiting",
                    "reenter": true,
                    "actions": [
                      {
                        "type": "recordBytesRead"
                      },
                      {
                        "type": "relayProgress"
                      },
                      "extendDeadline"
                    ]
                  },
                  {
                    "guard": {
                      "type": "isProgressNotice"
                    },
                    "actions": [
                      {
                        "type": "recordBytesRead"
                      },
                      {
                        "type": "relayProgress"
                      }
                    ]
                  }
                ]
              }
            }
          }
        },
        "responseCheck": {
          "always": [
            {
              "guard": {
                "type": "hasNextPage"
              },
              "target": "requesting",
              "actions": {
                "type": "collectPage"
              }
            },
            {
              "guard": {
                "type": "hasCursorAtPageLimit"
              },
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failProtocol",
                "params": {
                  "violation": "did not end its MCP tools/list"
                }
              }
            },
            {
              "guard": {
                "type": "isAnswered"
              },
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "succeed"
              }
            },
            {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          ]
        }
      }
    },
    "stateless": {
      "initial": "requesting",
      "on": {
        "BYTES_READ": [
          {
            "guard": {
              "type": "exceedsReadBudget"
            },
            "target": "#mcpOperation.closing",
            "actions": {
              "type": "failTooLarge"
            }
          },
          {
            "actions": {
              "type": "recordBytesRead"
            }
          }
        ]
      },
      "states": {
        "requesting": {
          "invoke": {
            "id": "postStatelessRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": {
                  "type": "isUnauthorized"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnauthorized"
                }
              },
              {
                "guard": {
                  "type": "isSessionServer"
                },
                "target": "#mcpOperation.session",
                "actions": [
                  "markSwitched",
                  "switchToSession",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "initialize"
                    }
                  }
                ]
              },
              {
                "guard": {
                  "type": "offersSessionRevision"
                },
                "target": "#mcpOperation.session",
                "actions": [
                  "markSwitched",
                  "switchToSession",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "initialize"
                    }
                  }
                ]
              },
              {
                "guard": {
                  "type": "isUntypedAnswer"
                },
                "target": "#mcpOperation.session",
                "actions": [
                  "markSwitched",
                  "switchToSession",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "initialize"
                    }
                  }
                ]
              },
              {
                "guard": {
                  "type": "offersStatelessRetry"
                },
                "target": "requesting",
                "reenter": true,
                "actions": [
                  "markSwitched",
                  "nextRequestId"
                ]
              },
              {
                "guard": {
                  "type": "isUnsupportedVersion"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failUnsupportedVersion"
                }
              },
              {
                "guard": {
                  "type": "asksForDeferredInput"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failInputDeferred"
                }
              },
              {
                "guard": {
                  "type": "asksForInput"
                },
                "target": "answeringInput",
                "actions": {
                  "type": "assignInputRequired"
                }
              },
              {
                "guard": {
                  "type": "asksForInputPastLimit"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "asked for client input in more rounds than a call answers"
                  }
                }
              },
              {
                "guard": {
                  "type": "isRpcRefusal"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failRpcRefusal"
                }
              },
              {
                "guard": {
                  "type": "isHttpError"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "hasNextPage"
                },
                "target": "requesting",
                "reenter": true,
                "actions": {
                  "type": "collectPage"
                }
              },
              {
                "guard": {
                  "type": "hasCursorAtPageLimit"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "did not end its MCP tools/list"
                  }
                }
              },
              {
                "guard": {
                  "type": "handsTaskBack"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failTaskHandedBack"
                }
              },
              {
                "guard": {
                  "type": "createsTask"
                },
                "target": "#mcpOperation.task",
                "actions": {
                  "type": "assignTask"
                }
              },
              {
                "guard": {
                  "type": "isResponse"
                },
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "succeed"
                }
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "violation": "ended the MCP exchange without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "initial": "waiting",
          "states": {
            "waiting": {
              "after": {
                "REQUEST_DEADLINE": {
                  "target": "#mcpOperation.closing",
                  "actions": [
                    {
                      "type": "failTimeout"
                    },
                    {
                      "type": "abandonRequest",
                      "params": {
                        "cause": "timeout"
                      }
                    }
                  ]
                }
              },
              "on": {
                "PROGRESS": [
                  {
                    "guard": {
                      "type": "extendsDeadline"
                    },
                    "target": "waiting",
                    "reenter": true,
                    "actions": [
                      {
                        "type": "relayProgress"
                      },
                      "extendDeadline"
                    ]
                  },
                  {
                    "actions": {
                      "type": "relayProgress"
                    }
                  }
                ]
              }
            }
          }
        },
        "answeringInput": {
          "invoke": {
            "id": "answerInputRequests",
            "src": "answerInputRequests",
            "onDone": {
              "target": "requesting",
              "actions": {
                "type": "assignInputResponses"
              }
            },
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failWithError"
              }
            }
          },
          "after": {
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": [
                {
                  "type": "failTimeout"
                },
                {
                  "type": "abandonRequest",
                  "params": {
                    "cause": "timeout"
                  }
                }
              ]
            }
          }
        }
      }
    },
    "task": {
      "meta": {
        "operation": "tools/call"
      },
      "entry": "announceTaskDeadline",
      "invoke": {
        "id": "driveTask",
        "src": "driveTask",
        "onDone": {
          "target": "closing",
          "actions": {
            "type": "settleTask"
          }
        },
        "onError": {
          "target": "#mcpOperation.closing",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "TASK_BACKSTOP": {
          "target": "closing",
          "actions": {
            "type": "failTimeout"
          }
        }
      },
      "on": {
        "CANCEL": {
          "actions": "forwardCancel"
        },
        "PROGRESS": {
          "actions": {
            "type": "relayProgress"
          }
        }
      }
    },
    "closing": {
      "entry": "closeCallerStream",
      "always": [
        {
          "guard": {
            "type": "hasAbandonedRequest"
          },
          "target": "cancellingRequest"
        },
        {
          "guard": {
            "type": "hasSession"
          },
          "target": "endingSession"
        },
        {
          "target": "closed"
        }
      ]
    },
    "cancellingRequest": {
      "meta": {
        "operation": "notifications/cancelled"
      },
      "invoke": {
        "id": "postCancelled",
        "src": "exchange",
        "onDone": [
          {
            "guard": {
              "type": "hasSession"
            },
            "target": "endingSession"
          },
          {
            "target": "closed"
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "hasSession"
            },
            "target": "endingSession"
          },
          {
            "target": "closed"
          }
        ]
      },
      "after": {
        "SESSION_END_DEADLINE": [
          {
            "guard": {
              "type": "hasSession"
            },
            "target": "endingSession"
          },
          {
            "target": "closed"
          }
        ]
      },
      "on": {
        "CANCEL": {
          "target": "closed"
        }
      }
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
